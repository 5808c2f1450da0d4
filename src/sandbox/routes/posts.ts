import type { SandboxModule } from '../module';
import { registerCommentRoutes } from './posts/comments';
import { registerPostsControl } from './posts/control';
import { registerMediaDownload, registerMediaRoutes } from './posts/media';
import { publishDuePosts } from './posts/publish';
import { seedPosts } from './posts/seed';
import { registerWallPostRoutes } from './posts/wall-posts';

/**
 * Wall posts, comments and media, with the employee actions that create them. Its records are the
 * kinds `posts`, `comments` and `media` (routes/posts/records.ts). Employees' scheduled posts go live
 * on the sandbox clock (a tick handler), firing post.created then.
 */
export const postsModule: SandboxModule = {
  name: 'posts',
  api(router, ctx) {
    registerWallPostRoutes(router, ctx);
    registerCommentRoutes(router, ctx);
    registerMediaRoutes(router, ctx);
  },
  control(app, ctx) {
    registerPostsControl(app, ctx);
    registerMediaDownload(app, ctx);
  },
  seed: (ctx, options) => seedPosts(ctx, options),
  start(ctx) {
    ctx.onTick((now) => publishDuePosts(ctx, now));
  },
};

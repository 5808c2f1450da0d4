import type { SandboxModule } from './module';
import { directoryModule } from './routes/directory';
import { postsModule } from './routes/posts';
import { contentModule } from './routes/content';
import { achievementsModule } from './routes/achievements';
import { webhooksModule } from './routes/webhooks';
import { messagingModule } from './routes/messaging';
import { formsModule } from './routes/forms';

/**
 * The areas of the emulated platform, in seed order: the directory first (users, groups, walls),
 * then what refers to it.
 */
export const SANDBOX_MODULES: readonly SandboxModule[] = [
  directoryModule,
  postsModule,
  contentModule,
  achievementsModule,
  webhooksModule,
  messagingModule,
  formsModule,
];

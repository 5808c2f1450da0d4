import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../api/errors';
import { skip, type ConformanceCheck } from '../check';
import { describeError, expectEqual, expectRejects, expectThat } from '../expect';
import { MARK, firstOrSkip, isoDateTime, orSkipWhenForbidden, rawRequest } from './support';

async function firstWallId(api: IntrabotApi): Promise<number> {
  const walls = await orSkipWhenForbidden(api.walls.list({ per_page: 1 }), 'GET /walls');
  return firstOrSkip(walls.data, 'walls').id;
}

const createGetDelete: ConformanceCheck = {
  id: 'posts.create-get-delete',
  title: 'a post created through the API is published at once, readable, and deleted with a 204',
  section: 'Posts; Wall post visibility; Errors (204)',
  readOnly: false,
  async run(api) {
    const wallId = await firstWallId(api);
    const post = await api.posts.create(wallId, { body: MARK });
    expectEqual(post.wall_id, wallId, 'wall_id of the created post');
    expectEqual(post.body, MARK, 'body of the created post');
    const read = await api.posts.get(wallId, post.id);
    expectEqual(read.id, post.id, 'GET of the created post');
    const since = isoDateTime(Date.parse(post.created_at) - 1_000);
    const live = await api.posts.list(wallId, { per_page: 50, since });
    expectThat(
      live.data.some((p) => p.id === post.id),
      'the new post is missing from the default (published) list',
    );
    const drafts = await api.posts.list(wallId, { per_page: 50, since, status: 'draft' });
    expectThat(!drafts.data.some((p) => p.id === post.id), 'the new post is listed with status=draft');
    const res = await rawRequest(api, 'DELETE', `/walls/${wallId}/posts/${post.id}`);
    expectEqual(res.status, 204, 'DELETE of the post status');
    expectEqual(res.body, null, 'DELETE of the post body');
    await expectRejects(api.posts.get(wallId, post.id), ApiNotFoundError, 'GET of the deleted post');
  },
};

/** A listed user who is not a bot (users lists registered people; bots live under /bots). */
async function someNonBotId(api: IntrabotApi): Promise<number> {
  const users = await orSkipWhenForbidden(api.users.list({ per_page: 10 }), 'GET /users');
  const bots = new Set((await orSkipWhenForbidden(api.bots.list({ per_page: 50 }), 'GET /bots')).data.map((b) => b.id));
  const user = users.data.find((u) => !bots.has(u.id));
  if (!user) skip('the host lists no user who is not a bot');
  return user.id;
}

const nonBotAuthor: ConformanceCheck = {
  id: 'posts.non-bot-author',
  title: 'a post with a bot_user_id that is not a bot is a 422 naming bot_user_id',
  section: 'Posts (bot_user_id); Errors (422)',
  readOnly: false,
  async run(api) {
    const wallId = await firstWallId(api);
    const userId = await someNonBotId(api);
    let created: number | undefined;
    const attempt = api.posts.create(wallId, { body: MARK, bot_user_id: userId }).then((post) => {
      created = post.id;
      return post;
    });
    try {
      const error = await expectRejects(attempt, ApiValidationError, `POST /walls/${wallId}/posts with bot_user_id ${userId} (a person)`);
      expectThat(error.platformMessage.includes('bot_user_id'), `the 422 message does not name bot_user_id: ${error.platformMessage}`);
    } finally {
      if (created !== undefined) await api.posts.delete(wallId, created);
    }
  },
};

const EDIT_WINDOW_S = 30 * 60;

const commentEditWindow: ConformanceCheck = {
  id: 'comments.edit-window',
  title: 'a comment can be edited within 30 minutes of its creation and not after',
  section: 'Comment edit window',
  readOnly: false,
  async run(api, ctx) {
    if (!ctx.sandbox) skip('needs the sandbox clock to pass 30 minutes; the platform has no clock control');
    const wallId = await firstWallId(api);
    const post = await api.posts.create(wallId, { body: MARK });
    try {
      const comment = await api.comments.create(post.id, { body: 'first' });
      const edited = await api.comments.update(post.id, comment.id, { body: 'edited in time' });
      expectEqual(edited.body, 'edited in time', 'body after an edit within the window');
      await ctx.sandbox.advance(EDIT_WINDOW_S + 60);
      let refused = false;
      try {
        await api.comments.update(post.id, comment.id, { body: 'edited too late' });
      } catch (error) {
        refused = error instanceof ApiValidationError || error instanceof ApiForbiddenError;
        expectThat(refused, `an edit after 31 minutes failed otherwise than 403/422: ${describeError(error)}`);
      }
      expectThat(refused, 'an edit 31 minutes after creation was accepted');
      expectEqual((await api.comments.get(post.id, comment.id)).body, 'edited in time', 'body after the refused edit');
    } finally {
      await api.posts.delete(wallId, post.id);
    }
  },
};

export const postChecks: ConformanceCheck[] = [createGetDelete, nonBotAuthor, commentEditWindow];

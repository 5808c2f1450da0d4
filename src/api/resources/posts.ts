import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { BodyInput, Id, QueryInput } from './types';

const e = {
  list: endpoints['posts.list'],
  get: endpoints['posts.get'],
  create: endpoints['posts.create'],
  update: endpoints['posts.update'],
  delete: endpoints['posts.delete'],
};

/**
 * Wall posts (spec: Posts).
 *
 * @example
 * const post = await api.posts.create(3, { body: 'Deploy finished', bot_user_id: bot.id });
 * for await (const p of api.posts.all(3, { since: '2026-05-01' })) console.log(p.body);
 */
export function postsResource(caller: Caller) {
  return {
    list: (wallId: Id, query?: QueryInput<typeof e.list>) => caller.call(e.list, { params: { wall_id: wallId }, query }),
    all: (wallId: Id, query?: QueryInput<typeof e.list>) => caller.paginate(e.list, { params: { wall_id: wallId }, query }),
    get: (wallId: Id, id: Id) => caller.call(e.get, { params: { wall_id: wallId, id } }),
    create: (wallId: Id, body: BodyInput<typeof e.create>) => caller.call(e.create, { params: { wall_id: wallId }, body }),
    update: (wallId: Id, id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { wall_id: wallId, id }, body }),
    delete: (wallId: Id, id: Id) => caller.call(e.delete, { params: { wall_id: wallId, id } }),
  };
}

import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { BodyInput, Id, QueryInput } from './types';

const e = {
  list: endpoints['comments.list'],
  get: endpoints['comments.get'],
  create: endpoints['comments.create'],
  update: endpoints['comments.update'],
  delete: endpoints['comments.delete'],
};

/** Comments on a post (spec: Comments); an update works for the author within 30 minutes only. */
export function commentsResource(caller: Caller) {
  return {
    list: (postId: Id, query?: QueryInput<typeof e.list>) => caller.call(e.list, { params: { post_id: postId }, query }),
    all: (postId: Id, query?: QueryInput<typeof e.list>) => caller.paginate(e.list, { params: { post_id: postId }, query }),
    get: (postId: Id, id: Id) => caller.call(e.get, { params: { post_id: postId, id } }),
    create: (postId: Id, body: BodyInput<typeof e.create>) => caller.call(e.create, { params: { post_id: postId }, body }),
    update: (postId: Id, id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { post_id: postId, id }, body }),
    delete: (postId: Id, id: Id) => caller.call(e.delete, { params: { post_id: postId, id } }),
  };
}

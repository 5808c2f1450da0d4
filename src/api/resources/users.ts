import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = {
  get: endpoints['users.get'],
  create: endpoints['users.create'],
  delete: endpoints['users.delete'],
  avatar: endpoints['users.avatar'],
};

/**
 * Registered users (spec: Users). For a daily sync, pass the newest `created_at` seen as `since`.
 *
 * @example
 * for await (const user of api.users.all({ since: lastSeen })) remember(user);
 */
export function usersResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['users.list']),
    get: (id: Id) => caller.call(e.get, { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    delete: (id: Id) => caller.call(e.delete, { params: { id } }),
    /** Multipart field `media` holds the image. */
    setAvatar: (id: Id, form: FormData) => caller.call(e.avatar, { params: { id }, form }),
  };
}

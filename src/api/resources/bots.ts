import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = { create: endpoints['bots.create'], update: endpoints['bots.update'] };

/** Bot users, the non-human authors of posts and direct messages (spec: Bots). */
export function botsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['bots.list']),
    get: (id: Id) => caller.call(endpoints['bots.get'], { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
  };
}

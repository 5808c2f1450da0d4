import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = { create: endpoints['webhooks.create'], update: endpoints['webhooks.update'] };

/** Outgoing webhook endpoints of the calling token (spec: Outgoing webhook management). */
export function webhooksResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['webhooks.list']),
    get: (id: Id) => caller.call(endpoints['webhooks.get'], { params: { id } }),
    /** The full signing secret: keep it out of logs. */
    secret: (id: Id) => caller.call(endpoints['webhooks.secret'], { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    revoke: (id: Id) => caller.call(endpoints['webhooks.revoke'], { params: { id } }),
    toggle: (id: Id) => caller.call(endpoints['webhooks.toggle'], { params: { id } }),
    ping: (id: Id) => caller.call(endpoints['webhooks.ping'], { params: { id } }),
  };
}

import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = {
  create: endpoints['incomingWebhooks.create'],
  update: endpoints['incomingWebhooks.update'],
  send: endpoints['incomingWebhooks.send'],
};

/**
 * Incoming webhooks: management (our paths, spec: not shown) and `send`, which authenticates with
 * the token in the URL rather than the bearer token.
 *
 * @example
 * const hook = await api.incomingWebhooks.create({ name: 'alerts', action: 'wall_post', wall_id: 3 });
 * await api.incomingWebhooks.send(hook.token, { text: 'Disk almost full' });
 */
export function incomingWebhooksResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['incomingWebhooks.list']),
    get: (id: Id) => caller.call(endpoints['incomingWebhooks.get'], { params: { id } }),
    /** The answer carries `url` and `token`, this once: store them encrypted. */
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    revoke: (id: Id) => caller.call(endpoints['incomingWebhooks.revoke'], { params: { id } }),
    send: (token: string, payload: BodyInput<typeof e.send>) => caller.call(e.send, { params: { token }, body: payload }),
  };
}

import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = {
  get: endpoints['events.get'],
  create: endpoints['events.create'],
  update: endpoints['events.update'],
  delete: endpoints['events.delete'],
};

/** Events (spec: Events): drafts by default; `publish_at` schedules, `null` cancels the schedule. */
export function eventsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['events.list']),
    get: (id: Id) => caller.call(e.get, { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    delete: (id: Id) => caller.call(e.delete, { params: { id } }),
  };
}

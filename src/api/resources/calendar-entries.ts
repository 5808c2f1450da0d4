import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const e = {
  get: endpoints['calendarEntries.get'],
  create: endpoints['calendarEntries.create'],
  update: endpoints['calendarEntries.update'],
  patch: endpoints['calendarEntries.patch'],
  delete: endpoints['calendarEntries.delete'],
};

/** Calendar entries (spec: Calendar entries); `update` (PUT) and `patch` (PATCH) are equivalent. */
export function calendarEntriesResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['calendarEntries.list']),
    get: (id: Id) => caller.call(e.get, { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    patch: (id: Id, body: BodyInput<typeof e.patch>) => caller.call(e.patch, { params: { id }, body }),
    delete: (id: Id) => caller.call(e.delete, { params: { id } }),
  };
}

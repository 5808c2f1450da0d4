import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, type QueryInput, listing } from './types';

const e = {
  get: endpoints['announcements.get'],
  create: endpoints['announcements.create'],
  update: endpoints['announcements.update'],
  delete: endpoints['announcements.delete'],
  confirmations: endpoints['announcements.confirmations'],
};

/** Announcements (spec: Announcements): published on create unless `is_published: false`. */
export function announcementsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['announcements.list']),
    get: (id: Id) => caller.call(e.get, { params: { id } }),
    create: (body: BodyInput<typeof e.create>) => caller.call(e.create, { body }),
    update: (id: Id, body: BodyInput<typeof e.update>) => caller.call(e.update, { params: { id }, body }),
    delete: (id: Id) => caller.call(e.delete, { params: { id } }),
    confirmations: (id: Id, query?: QueryInput<typeof e.confirmations>) => caller.call(e.confirmations, { params: { id }, query }),
    allConfirmations: (id: Id, query?: QueryInput<typeof e.confirmations>) => caller.paginate(e.confirmations, { params: { id }, query }),
  };
}

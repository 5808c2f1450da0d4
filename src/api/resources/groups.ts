import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type BodyInput, type Id, listing } from './types';

const create = endpoints['groups.create'];

/** Groups (spec: Groups); system groups are never listed. */
export function groupsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['groups.list']),
    get: (id: Id) => caller.call(endpoints['groups.get'], { params: { id } }),
    create: (body: BodyInput<typeof create>) => caller.call(create, { body }),
  };
}

import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type Id, listing } from './types';

/** Walls are read-only (spec: Wall). */
export function wallsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['walls.list']),
    get: (id: Id) => caller.call(endpoints['walls.get'], { params: { id } }),
  };
}

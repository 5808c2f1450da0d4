import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { listing } from './types';

/** Every announcement confirmation, newest first; pass `since` for incremental reads. */
export function confirmationsResource(caller: Caller) {
  return listing(caller, endpoints['confirmations.list']);
}

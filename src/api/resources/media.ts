import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { Id } from './types';

/**
 * Media (spec: Media). `upload` takes the multipart form as is (`media` file and `type`); the
 * client offers the file-reading convenience on top of it.
 */
export function mediaResource(caller: Caller) {
  return {
    get: (id: Id) => caller.call(endpoints['media.get'], { params: { id } }),
    upload: (form: FormData) => caller.call(endpoints['media.upload'], { form }),
  };
}

import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import { type Id, type QueryInput, listing } from './types';

const responses = endpoints['forms.responses'];

/** Forms and their responses (paths our choice, spec: not shown). */
export function formsResource(caller: Caller) {
  return {
    ...listing(caller, endpoints['forms.list']),
    get: (id: Id) => caller.call(endpoints['forms.get'], { params: { id } }),
    responses: (id: Id, query?: QueryInput<typeof responses>) => caller.call(responses, { params: { id }, query }),
    allResponses: (id: Id, query?: QueryInput<typeof responses>) => caller.paginate(responses, { params: { id }, query }),
  };
}

/** One form response by id. */
export function formResponsesResource(caller: Caller) {
  return { get: (id: Id) => caller.call(endpoints['formResponses.get'], { params: { id } }) };
}

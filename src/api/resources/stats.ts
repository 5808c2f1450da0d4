import type { Caller } from '../caller';
import { endpoints } from '../schemas/endpoints';
import type { QueryInput } from './types';

const e = {
  users: endpoints['stats.users'],
  engagement: endpoints['stats.engagement'],
  adoption: endpoints['stats.adoption'],
  content: endpoints['stats.content'],
};

/** Statistics (spec: Statistics), cached by the platform for 1 h (engagement 24 h). */
export function statsResource(caller: Caller) {
  return {
    users: () => caller.call(e.users),
    engagement: (query?: QueryInput<typeof e.engagement>) => caller.call(e.engagement, { query }),
    adoption: (query?: QueryInput<typeof e.adoption>) => caller.call(e.adoption, { query }),
    content: () => caller.call(e.content),
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { defineBot } from '../../../src';

/** How long each delivery keeps its inbox lane busy (DESIGN.md Targets: "while handlers take 5 s each"). */
const HANDLER_MS = 5_000;

export default defineBot({
  on: {
    'post.created': async (event, ctx) => {
      // the bench reads this back to prove the handlers really ran during the measurement
      await ctx.store.set('last-started', event.id);
      await sleep(HANDLER_MS, undefined, { signal: ctx.signal });
    },
  },
});

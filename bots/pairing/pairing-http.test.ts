import { fileURLToPath } from 'node:url';
import { startPair, type Pair, type SeedRefs } from 'intrabot/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makePairs } from './make-pairs';

let pair: Pair;
let refs: SeedRefs;
// Monday 7 December 2026, 09:00 in Berlin, the sandbox's zone
const MONDAY_MS = Date.UTC(2026, 11, 7, 8, 0);

beforeAll(async () => {
  pair = await startPair({ bots: ['pairing'], botsDir: fileURLToPath(new URL('..', import.meta.url)), start: MONDAY_MS });
  refs = await pair.refs();
});
afterAll(async () => pair?.close());

it("tells each member of the group by DM whom they meet, the round drawn from the date's seed", async () => {
  const users = await pair.platform.request<{ data: { id: number; name: string }[] }>(
    'GET',
    `/api/open/v1/users?group_id=${refs.departments.Engineering}&per_page=50`,
  );
  const names = new Map(users.data.map((u) => [u.id, u.name]));
  const expected = makePairs([...names.keys()], [], '2026-12-07');

  await pair.runJob('pairing', 'pair');
  // sends are spread about one a second under the rate budget: let the shared clock move them on
  await pair.settle({ advanceClock: true });
  const dms = await pair.platform.waitFor(
    () => pair.platform.messages({ kind: 'direct' }),
    (m) => m.length >= names.size,
  );
  expect(dms).toHaveLength(names.size);
  for (const group of expected) {
    for (const id of group) {
      const others = group.filter((x) => x !== id).map((x) => names.get(x)!);
      const dm = dms.find((m) => Number(m.user_id) === id);
      expect(String(dm?.text)).toContain(`this week you meet ${others.join(' and ')}`);
    }
  }

  // a second run that day tells nobody again
  await pair.runJob('pairing', 'pair');
  await pair.settle();
  expect(await pair.platform.messages({ kind: 'direct' })).toHaveLength(names.size);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';

const POSTGRES = postgresTestUrl();

/**
 * Through PgBouncer in transaction mode LISTEN hears nothing: a runtime must still take the work another
 * replica accepted, by polling. Here the runtime's store has no wake-ups at all, and the delivery is
 * accepted on another connection, as another replica would.
 */
describe.skipIf(!POSTGRES)('a runtime on PostgreSQL without wake-ups (PgBouncer in transaction mode)', () => {
  const schema = uniquePostgresSchema('polling');
  let pair: Pair;
  let own: Store;
  let other: Store;

  beforeAll(async () => {
    const clock = new AdjustableClock();
    const secretKey = 'postgres-polling-test-key';
    own = await openStore({ kind: 'postgres', url: POSTGRES!, schema }, { clock, secretKey });
    // what LISTEN through PgBouncer comes to: subscribed, never told
    const deaf: Store = Object.assign(Object.create(own) as Store, { watch: () => () => undefined });
    pair = await startPair({ bots: ['kudos'], store: deaf });
    other = await openStore({ kind: 'postgres', url: POSTGRES!, schema }, { clock, secretKey });
  }, 60_000);

  afterAll(async () => {
    await pair?.close();
    await own?.close();
    await other?.close();
    await dropPostgresSchema(POSTGRES!, schema);
  });

  it('takes a delivery another replica accepted by polling, without being woken', async () => {
    const accepted = await other.inbox.accept({
      tenant: 'sandbox',
      bot: 'kudos',
      deliveryId: 'accepted-elsewhere',
      event: 'post.created',
      // a post without its body: quick to tell apart from one no runtime looked at
      envelope: { id: 'accepted-elsewhere', event: 'service.post.created', version: 'v1', timestamp: 1_700_000_000, customer: 'sandbox', payload: { id: 1 } },
    });
    expect(accepted.accepted).toBe(true);
    const id = accepted.accepted ? accepted.id : '';
    // the payload is not a whole post: the runtime that took it says so (nobody else reserves here)
    const entry = await pair.platform.waitFor(
      () => other.inbox.get(id),
      (found) => found?.state === 'dead',
      10_000,
    );
    expect(entry).toMatchObject({ attempts: 1, deadReason: expect.stringContaining('not handed to the bot') });
  });
});

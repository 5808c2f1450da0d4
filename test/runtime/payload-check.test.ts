import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { runDeliveries } from '../../src/cli/commands/deliveries';
import { startPair, testBot, type Pair } from '../../src/testing';
import { captureIo, pairEnv } from '../cli/cli-io';
import { PAYLOAD_SCHEMAS, PostCreatedPayloadSchema } from '../../src/webhooks/payloads';
import { postCreatedEnvelope, signedDelivery } from '../helpers/deliveries';

// A signed delivery is authentic, so it is acknowledged and nothing of it is lost; but a handler typed
// with the checked payload must never get one without the fields its event promises (spec: Events,
// service.post.created names wall_name among the payload's fields).

let pair: Pair;
beforeAll(async () => {
  pair = await startPair({ bots: ['ops'] });
});
afterAll(async () => {
  await pair?.close();
});

/** A `/oncall` post on the Company wall as the platform would announce it, but without `wall_name`. */
async function deliverWithoutWallName(postId: number): Promise<string> {
  const secret = (await pair.runtime.inspect().store.secrets.get(webhookSecretName('sandbox', 'ops')))!;
  const envelope = postCreatedEnvelope(pair.clock, { id: postId, body: '/oncall' });
  delete (envelope.payload as { wall_name?: string }).wall_name;
  const answer = await fetch(`${pair.runtime.inspect().url}/hooks/sandbox/ops`, { method: 'POST', ...signedDelivery(secret, envelope) });
  expect(answer.status).toBe(200);
  return envelope.id;
}

async function deadLetter(deliveryId: string) {
  const res = await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=dead`);
  const dead = ((await res.json()) as { data: { id: string; attempts: number; deadReason: string | null; payload: { deliveryId: string } }[] }).data;
  return dead.find((d) => d.payload.deliveryId === deliveryId);
}

/** What the handled-deliveries history (`intrabot deliveries --handled`) says of a delivery. */
async function handled(deliveryId: string) {
  const res = await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=handled`);
  const log = ((await res.json()) as { data: { deliveryId: string; outcome: string; detail: string }[] }).data;
  return log.filter((d) => d.deliveryId === deliveryId);
}

async function deadLettered(deliveryId: string) {
  return pair.platform.waitFor(
    () => deadLetter(deliveryId),
    (d) => d !== undefined,
  );
}

describe('event payloads checked before a handler gets them', () => {
  it('acknowledges a signed delivery without a promised field, hands it to no handler, and dead-letters it at once naming the field', async () => {
    const id = await deliverWithoutWallName(990_001);
    expect(await deadLettered(id)).toMatchObject({ attempts: 1, deadReason: expect.stringMatching(/^payload\.wall_name: /) });
    await pair.settle();
    expect(await handled(id)).toEqual([]);
    expect(await pair.runtime.inspect().store.outbox.list()).toEqual([]);
  });

  it('shows the dead letter and the field it lacks in intrabot deliveries --dead and the console timeline', async () => {
    const id = await deliverWithoutWallName(990_004);
    const reason = (await deadLettered(id))!.deadReason!;
    expect(reason).toMatch(/^payload\.wall_name: /);
    const io = captureIo(pairEnv(pair, 'bots'));
    expect(await runDeliveries(['--dead', '--json'], io)).toBe(0);
    const listed = JSON.parse(io.out) as { payload: { deliveryId: string }; deadReason?: string }[];
    expect(listed.find((e) => e.payload.deliveryId === id)?.deadReason).toBe(reason);
    const answer = await fetch(`${pair.runtime.inspect().url}/console/api/deliveries?status=dead`);
    const rows = ((await answer.json()) as { rows: { deliveryId: string; status: string; detail: string | null; entryId: string | null }[] }).rows;
    expect(rows.find((row) => row.deliveryId === id)).toMatchObject({ status: 'dead', detail: reason, entryId: expect.any(String) });
  });

  it('is handled when replayed once intrabot reads the payload (an upgrade), and dead-lettered again before', async () => {
    const id = await deliverWithoutWallName(990_002);
    await deadLettered(id);
    const entryId = (await pair.runtime.inspect().store.inbox.list({ state: 'dead' })).find((e) => e.payload.deliveryId === id)!.id;
    const replay = () => fetch(`${pair.runtime.inspect().url}/_admin/deliveries/${entryId}/replay`, { method: 'POST' });

    expect((await replay()).status).toBe(200);
    await pair.settle();
    expect(await deadLetter(id)).toMatchObject({ deadReason: expect.stringMatching(/^payload\.wall_name: /) });
    expect(await handled(id)).toEqual([]);

    // the release that reads such payloads: wall_name optional
    const schemas = PAYLOAD_SCHEMAS as Record<string, z.ZodType>;
    schemas['post.created'] = PostCreatedPayloadSchema.partial({ wall_name: true });
    try {
      expect((await replay()).status).toBe(200);
      const log = await pair.platform.waitFor(
        () => handled(id),
        (l) => l.length > 0,
      );
      expect(log).toEqual([expect.objectContaining({ outcome: 'handled', detail: '/oncall' })]);
      expect(await deadLetter(id)).toBeUndefined();
    } finally {
      schemas['post.created'] = PostCreatedPayloadSchema;
    }
  });

  it('refuses in testBot exactly what the runtime dead-letters, with the same words', async () => {
    const id = await deliverWithoutWallName(990_003);
    await deadLettered(id);
    const runtimeReason = (await deadLetter(id))!.deadReason;
    const bot = await testBot('bots/ops');
    const { wall_name: _dropped, ...payload } = postCreatedEnvelope(pair.clock, { id: 990_003, body: '/oncall' }).payload;
    const refused = await bot.event('post.created', payload as never).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toBe(runtimeReason);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/runtime/operations/doctor';
import { startPair, type Pair } from '../../../src/testing';
import { firingAlert, postAlert } from './alert-requests';

/** How many times the platform was asked to list its walls (the sandbox's request log). */
async function wallListings(pair: Pair): Promise<number> {
  const log = await pair.platform.request<{ data: { method: string; path: string }[] }>('GET', '/_sandbox/requests?limit=10000');
  return log.data.filter((r) => r.method === 'GET' && r.path.split('?')[0] === '/api/open/v1/walls').length;
}

// Issue #12, defect 8: a target wall that does not exist made every alert 503 forever (the tool retried
// without end), listing all walls on each attempt.
describe('an alert target whose wall the tenant lacks', () => {
  let pair: Pair;

  beforeAll(async () => {
    // the operator mistyped the wall: ALERTS_WALL feeds the ops-wall target of bots/alerts/bot.yaml
    pair = await startPair({ bots: ['alerts'], env: { ALERTS_WALL: 'Operatons' } });
    await pair.platform.settings({ rate_limit_per_minute: 600 });
  });
  afterAll(async () => pair?.close());

  it('is found at provisioning, naming the target and the wall', () => {
    expect(pair.runtime.inspect().provisionResults[0]?.actions).toContainEqual({
      tenant: 'sandbox',
      resource: 'wall',
      name: 'alerts/ops-wall',
      action: 'missing',
      detail: 'no wall named "Operatons"',
    });
  });

  it('is found by intrabot doctor, with the fix', async () => {
    const env = { ...process.env, ALERTS_WALL: 'Operatons' };
    const checks = await runDoctor({ config: pair.runtime.inspect().config, clock: pair.clock, store: pair.runtime.inspect().store, env, only: ['alerts'] });
    expect(checks.find((c) => c.name === 'sandbox: wall of alerts/ops-wall')).toMatchObject({
      status: 'fail',
      detail: 'no wall named "Operatons"',
      fix: expect.stringContaining('targets.ops-wall.wall'),
    });
  });

  it('answers 422 naming the target and the wall, queues nothing, and asks the platform nothing on any attempt', async () => {
    const listingsBefore = await wallListings(pair);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await postAlert(pair, firingAlert('DiskFull'));
      expect(answer.status).toBe(422);
      const body = (await answer.json()) as { error: string; message: string; details: unknown };
      expect(body.error).toBe('alert_target_missing');
      expect(body.message).toMatch(/^target "ops-wall": no wall named "Operatons" on tenant sandbox\./);
      expect(body.details).toEqual({ targets: [{ target: 'ops-wall', problem: 'no wall named "Operatons" on tenant sandbox' }], queued: 0 });
    }
    expect(await pair.runtime.inspect().store.outbox.list({ state: 'live' })).toEqual([]);
    expect(await wallListings(pair)).toBe(listingsBefore);
  });

  it('still sends to the targets that exist (the on-call chat), and names the broken one', async () => {
    const answer = await postAlert(pair, firingAlert('DatabaseDown', 'critical'));
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ details: { targets: [{ target: 'ops-wall' }], queued: 1 } });
    await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'chat' }),
      (m) => m.some((x) => String(x.text).includes('DatabaseDown')),
    );
    // the chat message is not sent again when the tool resends the notification
    expect((await (await postAlert(pair, firingAlert('DatabaseDown', 'critical'))).json()) as unknown).toMatchObject({ details: { queued: 0 } });
    expect(await pair.runtime.inspect().store.outbox.list({ state: 'dead' })).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Middleware } from '../../src';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { startPair, type Pair } from '../../src/testing';
import { postAlertTo } from '../alerts/wiring/alert-requests';

// issue #25, item 1: one deployment per (tenant, bot), with one entry per trigger, each running the
// deployment's one chain (the runtime's middleware, then the bot's own)
const EVERY = 'test/fixtures/bots-triggers';

describe('a deployment’s triggers over HTTP with the sandbox (the every-trigger bot)', () => {
  let pair: Pair;
  const seen: string[] = [];
  const watch: Middleware = async (input, _ctx, next) => {
    seen.push(`${input.kind} ${input.what}`);
    await next();
  };

  beforeAll(async () => {
    pair = await startPair({ botsDir: EVERY, middleware: [watch] });
  });
  afterAll(async () => pair?.close());

  async function comments(postId: number): Promise<string[]> {
    return (await pair.platform.commentsOn(postId)).map((c) => String(c.body));
  }

  it('runs a command, its question’s timeout, a job and an alert through the same runtime-wide middleware', async () => {
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/confirm release' });
    await pair.platform.waitFor(
      () => comments(post.id),
      (bodies) => bodies.includes('Sure? Answer yes or no.'),
      10_000,
    );
    await pair.platform.advance(60);
    await pair.platform.waitFor(
      () => comments(post.id),
      (bodies) => bodies.includes('No answer: release not confirmed.'),
      10_000,
    );
    await pair.runJob('every', 'tick');
    const alert = await postAlertTo(
      pair,
      { bot: 'every', input: 'am', token: 'every-alert-token' },
      readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8'),
    );
    expect(alert.status).toBe(202);
    await pair.settle();
    expect(seen).toEqual(['command /confirm', 'timeout conversation confirm: timeout', 'job job tick', 'alert alert input am']);
  });

  it('has one deployment object per bot and tenant, made at load, which each trigger finds by name', () => {
    const { inbox, table } = runtimePartsOf(pair.runtime);
    const deployed = inbox.bots.get('sandbox', 'every');
    expect(deployed?.deployment).toBe(table.get('sandbox', 'every'));
    expect(inbox.bots.get('sandbox', 'every')).toBe(deployed);
    expect(deployed?.jobNames()).toEqual(['tick']);
    expect(inbox.bots.get('sandbox', 'nobody')).toBeUndefined();
  });

  it('ignores an inbox item for a bot not deployed on its tenant, naming both', async () => {
    const { inbox } = runtimePartsOf(pair.runtime);
    const item = { tenant: 'elsewhere', bot: 'every', deliveryId: 'd-1', event: 'post.created', envelope: { event: 'post.created', payload: {} } };
    expect(await inbox.bots.deliver(item as never)).toEqual({ status: 'ignored', reason: 'bot every is not deployed to elsewhere' });
  });
});

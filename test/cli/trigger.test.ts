import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { createSystemClock } from '../../src/clock';
import { runTrigger, samplePayload } from '../../src/cli/commands/trigger';
import { loadConfig } from '../../src/runtime/config';
import { openRuntimeStore } from '../../src/runtime/open-runtime-store';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';
import { EVENT_NAMES } from '../../src/webhooks/events';
import { safeParsePayload } from '../../src/webhooks/payloads';
import { captureIo, freePort, pairEnv } from './cli-io';

const BOTS = resolve('bots');

describe('intrabot trigger', () => {
  let pair: Pair;
  let tmp: string;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-trigger-'));
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('sends a signed delivery the runtime accepts (200) and the bot handles', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const author = refs.employee_ids[0]!;
    const post = await pair.platform.employeePost(author, { wall_id: refs.company_wall_id, body: 'just a post' });
    // a comment the platform never sent: the bot answers under the (real) post it names
    const file = join(tmp, 'comment.json');
    const at = new Date(pair.clock.now()).toISOString();
    const comment = { id: 987_654, body: '/oncall', post_id: post.id, wall_id: refs.company_wall_id, author: { id: author, name: 'Someone' }, created_at: at, updated_at: at };
    writeFileSync(file, JSON.stringify(comment));
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'comment.created', '--payload', file], io)).toBe(0);
    expect(io.out).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/hooks\/sandbox\/ops {2}service\.comment\.created {2}delivery [0-9a-f-]{36}/);
    expect(io.out, io.err).toContain('200 {"ok":true,"duplicate":false}');
    const comments = await pair.platform.waitFor(() => pair.platform.commentsOn(post.id), (c) => c.length > 0);
    expect(comments[0]?.body).toBe('On call: Ada Lovelace');
  });

  it('says when the runtime acknowledged a delivery as already seen (same event and entity id)', async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'comment.created', '--payload', join(tmp, 'comment.json')], io)).toBe(0);
    expect(io.out).toContain('"duplicate":true');
    expect(io.out).toContain('already seen this event');
  });

  it('is rejected (401, exit 1) when signed with a wrong secret', async () => {
    const dataDir = join(tmp, 'wrong');
    const env = pairEnv(pair, BOTS, { INTRABOT_DATA_DIR: dataDir });
    const store = await openRuntimeStore(loadConfig({ env, cwd: tmp }), createSystemClock(), env);
    await store.secrets.put(webhookSecretName('sandbox', 'ops'), 'not-the-secret');
    await store.close();
    const io = captureIo(env);
    expect(await runTrigger(['ops', 'test'], io)).toBe(1);
    expect(io.out).toContain('401');
    expect(io.out).not.toContain('not-the-secret');
  });

  it('exits 1 when the bot has no secret (not provisioned) or no runtime listens', async () => {
    const unknown = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['nobody', 'post.created'], unknown)).toBe(1);
    expect(unknown.err).toContain('no webhook secret for bot "nobody"');
    const down = captureIo(pairEnv(pair, BOTS, { INTRABOT_PORT: String(await freePort()) }));
    expect(await runTrigger(['ops', 'test'], down)).toBe(1);
    expect(down.err).toContain('no runtime is listening');
  });

  it('exits 2 on an unknown event, a missing argument or an unreadable payload file', async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'post.exploded'], io)).toBe(2);
    expect(io.err).toContain('unknown event "post.exploded"');
    expect(await runTrigger(['ops'], captureIo(pairEnv(pair, BOTS)))).toBe(2);
    expect(await runTrigger(['ops', 'post.created', '--payload', join(tmp, 'missing.json')], captureIo(pairEnv(pair, BOTS)))).toBe(2);
  });

  it('has a sample payload for every event that matches the event schema', () => {
    for (const event of EVENT_NAMES) expect(safeParsePayload(event, samplePayload(event, pair.clock.now())).success, event).toBe(true);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { createSystemClock } from '../../src/clock';
import { runTrigger } from '../../src/cli/commands/trigger';
import { samplePayload } from '../../src/cli/trigger/sample-payloads';
import { loadConfig } from '../../src/runtime/config/config';
import { openRuntimeStore } from '../../src/runtime/start/open-runtime-store';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';
import { EVENT_NAMES, REPORT_NAMES } from '../../src/webhooks/events';
import { safeParsePayload } from '../../src/webhooks/payloads';
import { REPORT_SCHEMAS } from '../../src/webhooks/report';
import { sampleReport } from '../../src/cli/trigger/sample-report';
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
    const comment = {
      id: 987_654,
      body: '/oncall',
      post_id: post.id,
      wall_id: refs.company_wall_id,
      author: { id: author, name: 'Someone' },
      created_at: at,
      updated_at: at,
    };
    writeFileSync(file, JSON.stringify(comment));
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'comment.created', '--payload', file], io)).toBe(0);
    expect(io.out).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/hooks\/sandbox\/ops {2}service\.comment\.created {2}delivery [0-9a-f-]{36}/);
    expect(io.out, io.err).toContain('200 {"ok":true,"duplicate":false}');
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
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

  it('refuses a payload without an id, naming the field, and sends nothing', async () => {
    const file = join(tmp, 'no-id.json');
    writeFileSync(file, JSON.stringify({ body: '/oncall', wall_id: 1, author: { id: 10, name: 'Ada' } }));
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'post.created', '--payload', file], io)).toBe(2);
    expect(io.err).toContain(`--payload ${file}: id is missing: a post.created payload names the entity it is about by its id`);
    expect(io.out).not.toContain('POST http');
  });

  it('has a sample payload for every event that matches the event schema', () => {
    for (const event of EVENT_NAMES) expect(safeParsePayload(event, samplePayload(event, pair.clock.now())).success, event).toBe(true);
  });

  it('has a sample report that matches the schema of every report', () => {
    for (const report of REPORT_NAMES) expect(REPORT_SCHEMAS[report].safeParse(sampleReport()).success, report).toBe(true);
  });

  it('says the ids are made up in connected mode, where no sandbox can be asked for real ones', async () => {
    const dataDir = join(tmp, 'connected');
    const env = {
      ...pairEnv(pair, BOTS, { INTRABOT_DATA_DIR: dataDir, INTRABOT_PORT: String(await freePort()) }),
      INTRABOT_BASE_URL: 'https://acme.example',
      INTRABOT_TOKEN: 'svc_connected_token',
      INTRABOT_SECRET_KEY: 'a-key-for-the-test-store-only',
    };
    const store = await openRuntimeStore(loadConfig({ env, cwd: tmp }), createSystemClock(), env);
    await store.secrets.put(webhookSecretName('default', 'welcome'), 'a-secret');
    await store.close();
    const io = captureIo(env);
    await runTrigger(['welcome', 'user.registered'], io);
    expect(io.out).toContain('sample payload: the ids are made up');
    expect(io.out).toContain('--payload');
    const withFile = captureIo(env);
    writeFileSync(join(tmp, 'user.json'), JSON.stringify({ id: 4, name: 'Ada Lovelace' }));
    await runTrigger(['welcome', 'user.registered', '--payload', join(tmp, 'user.json')], withFile);
    expect(withFile.out).not.toContain('made up');
  });
});

describe('intrabot trigger in sandbox mode', () => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops', 'welcome'] });
  });
  afterAll(async () => pair?.close());

  /** The id the output says the sample took from the sandbox for `what` (`post`, `employee`). */
  function idIn(out: string, what: string): number {
    const match = new RegExp(`ids from the sandbox: .*\\b${what} (\\d+)`).exec(out);
    expect(match, out).not.toBeNull();
    return Number(match![1]);
  }

  // issue #15, item 4: the sample's /help was answered under an unrelated real post
  it("makes a post of its own for post.created, by an employee, so the bot's reply lands under it and nowhere else", async () => {
    const wall = directoryRefs(pair.sandbox.ctx)!.company_wall_id;
    const before = new Set((await pair.platform.wallPosts(wall)).map((p) => p.id));
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'post.created'], io), io.err).toBe(0);
    expect(io.out).toContain('(made for this sample)');
    // the post was made without its own post.created: the delivery trigger signs is the first of it
    expect(io.out).toContain('"duplicate":false');
    const postId = idIn(io.out, 'post');
    expect(before.has(postId)).toBe(false);
    const post = (await pair.platform.wallPosts(wall)).find((p) => p.id === postId);
    expect(post, 'the post exists on a wall ops listens to').toMatchObject({ body: '/help' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(postId),
      (c) => c.length > 0,
    );
    expect(String(comments[0]?.body)).toContain('/oncall');
    expect(await pair.runtime.inspect().store.outbox.list({ state: 'dead', limit: 10 })).toEqual([]);
  });

  it('answers a comment event under a post made for it, from a real employee', async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'comment.created'], io), io.err).toBe(0);
    const postId = idIn(io.out, 'post');
    idIn(io.out, 'employee');
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(postId),
      (c) => c.some((x) => String(x.body).includes('/oncall')),
    );
    // the post is the sample's own: the bot's answer is the only comment under it
    expect(comments).toHaveLength(1);
    expect(await pair.runtime.inspect().store.outbox.list({ state: 'dead', limit: 10 })).toEqual([]);
  });

  it("greets the registered user of user.registered by that user's own name", async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['welcome', 'user.registered'], io), io.err).toBe(0);
    const userId = idIn(io.out, 'employee');
    const user = (await pair.platform.request<{ data: { first_name: string } }>('GET', `/api/open/v1/users/${userId}`)).data;
    const messages = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'direct', user_id: userId }),
      (m) => m.length > 0,
    );
    expect(String(messages[0]?.text)).toContain(`Welcome aboard, ${user.first_name}!`);
  });

  it('names the ids it took from the sandbox', async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    // welcome does not take announcements: the runtime acknowledges the delivery and routes it nowhere
    await runTrigger(['welcome', 'announcement.published'], io);
    expect(io.out).toMatch(/sample payload: ids from the sandbox: announcement \d+/);
  });

  it('says which ids are made up when the sandbox has none to offer (an empty platform)', async () => {
    const empty = await startPair({ bots: ['welcome'], seed: 'empty' });
    try {
      const io = captureIo(pairEnv(empty, BOTS));
      await runTrigger(['welcome', 'announcement.published'], io);
      expect(io.out).toContain('the announcement id is made up (none found in the sandbox)');
    } finally {
      await empty.close();
    }
  });
});

describe('intrabot trigger with a report', () => {
  let pair: Pair;
  let tmp: string;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops', 'todo-digest'] });
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-report-'));
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const digests = async (prefix: string) => {
    const wall = directoryRefs(pair.sandbox.ctx)!.company_wall_id;
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((post) => String(post.body).startsWith(prefix)),
    );
    return posts.filter((post) => String(post.body).startsWith(prefix)).map((post) => String(post.body));
  };

  it("sends a report to /reports signed with the secret of that report in the bot's manifest; the digest bot posts it", async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['todo-digest', 'todoliststats.daily'], io), io.err).toBe(0);
    expect(io.out).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/reports\/sandbox\/todo-digest {2}service\.todoliststats\.daily {2}delivery /);
    expect(io.out).toContain('200 {"ok":true');
    expect(io.out).toContain('made up');
    const [digest] = await digests('✅ Todo lists, ');
    expect(digest).toContain('55% done (11 of 20 tasks)');
    expect(digest).toContain('⚠️ Sales: 25% (2/8)');
  });

  it('sends the payload of --payload as the report', async () => {
    const file = join(tmp, 'weekly.json');
    const report = sampleReport();
    report.data.departments = report.data.departments.map((d) => (d.name === 'Sales' ? { ...d, name: 'Field Sales' } : d));
    writeFileSync(file, JSON.stringify(report));
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['todo-digest', 'todoliststats.weekly', '--payload', file], io), io.err).toBe(0);
    expect(io.out).toContain('service.todoliststats.weekly');
    const [digest] = await digests('✅ Todo lists, week to ');
    expect(digest).toContain('⚠️ Field Sales: 25% (2/8)');
  });

  it('is refused by the runtime (401) when the manifest the CLI reads has another secret than the runtime', async () => {
    const io = captureIo(pairEnv(pair, BOTS, { TODO_REPORT_SECRET: 'not-the-report-secret' }));
    expect(await runTrigger(['todo-digest', 'todoliststats.daily'], io)).toBe(1);
    expect(io.out).toContain('401');
    expect(io.out + io.err).not.toContain('not-the-report-secret');
  });

  it('exits 1 naming the report when the bot does not take it', async () => {
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runTrigger(['ops', 'todoliststats.daily'], io)).toBe(1);
    expect(io.err).toContain('bot "ops" does not take the report todoliststats.daily');
  });
});

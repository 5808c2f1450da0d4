import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { openStore, type Store } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { sign } from '../../src/webhooks/signature';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

const REDIS = redisTestUrl();
const PROMPT = 'Deploy api to prod? Answer yes or no within 10 minutes.';
const DEPLOYING = '🚀 Deploying api to prod, as';
const TIMED_OUT = 'No answer in 10 minutes: api is not deployed to prod.';

/** The bodies of the comments on a post, in order. */
async function thread(pair: Pair, postId: number): Promise<string[]> {
  return (await pair.platform.commentsOn(postId)).map((c) => String(c.body));
}

/** Waits until the post's thread has a comment of the bot's matching `text`, and returns the thread. */
async function waitForComment(pair: Pair, postId: number, text: string): Promise<string[]> {
  return pair.platform.waitFor(
    () => thread(pair, postId),
    (bodies) => bodies.some((b) => b.startsWith(text)),
    10_000,
  );
}

describe('conversations over HTTP with the sandbox (ops bot /deploy)', () => {
  let pair: Pair;
  let wall: number;
  let ada: number;
  let grace: number;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    const refs = await pair.refs();
    wall = refs.company_wall_id;
    [ada, grace] = refs.employee_ids as [number, number];
  });
  afterAll(async () => pair?.close());

  async function ask(): Promise<number> {
    const post = await pair.platform.employeePost(ada, { wall_id: wall, body: '/deploy api prod' });
    await waitForComment(pair, post.id, PROMPT);
    return post.id;
  }

  it('a whole conversation: the question under the post, the answer as a comment, the step runs once', async () => {
    const postId = await ask();
    await pair.platform.employeeComment(grace, { post_id: postId, body: 'yes' });
    await waitForComment(pair, postId, 'Sorry, only');
    await pair.platform.employeeComment(ada, { post_id: postId, body: 'yes' });
    await waitForComment(pair, postId, DEPLOYING);
    await pair.settle();
    const bodies = await thread(pair, postId);
    expect(bodies.filter((b) => b.startsWith(DEPLOYING))).toHaveLength(1);
    expect(bodies[0]).toBe(PROMPT);
    expect(await pair.botStore('ops').get('deploy:api:prod')).toMatchObject({ by: expect.any(String) });
  });

  it('times out on the injected clock, exactly once, and a late answer deploys nothing', async () => {
    const before = await pair.botStore('ops').get('deploy:api:prod');
    await pair.botStore('ops').delete('deploy:api:prod');
    const postId = await ask();
    await pair.platform.advance(10 * 60);
    await waitForComment(pair, postId, TIMED_OUT);
    await pair.platform.advance(60 * 60);
    await pair.platform.employeeComment(ada, { post_id: postId, body: 'yes' });
    await pair.settle();
    const bodies = await thread(pair, postId);
    expect(bodies.filter((b) => b === TIMED_OUT)).toHaveLength(1);
    expect(bodies.some((b) => b.startsWith(DEPLOYING))).toBe(false);
    expect(await pair.botStore('ops').get('deploy:api:prod')).toBeUndefined();
    if (before !== undefined) await pair.botStore('ops').set('deploy:api:prod', before);
  });

  it('a question outlives a restart: answered after it', async () => {
    const postId = await ask();
    await pair.restartRuntime();
    await pair.platform.employeeComment(ada, { post_id: postId, body: 'Yes!' });
    await waitForComment(pair, postId, DEPLOYING);
  });

  it('a question asked before a restart times out after it, on the clock', async () => {
    const postId = await ask();
    await pair.restartRuntime();
    await pair.platform.advance(10 * 60);
    await waitForComment(pair, postId, TIMED_OUT);
    await pair.settle();
    expect((await thread(pair, postId)).filter((b) => b === TIMED_OUT)).toHaveLength(1);
  });
});

describe.skipIf(!REDIS)('conversations with two replicas on Redis', () => {
  const prefix = uniqueRedisPrefix('conversations');
  let pair: Pair;
  let storeA: Store;
  let storeB: Store;
  let replicaB: Runtime;
  let dataDir: string;
  let ada: number;
  let wall: number;

  beforeAll(async () => {
    // one clock for both replicas and their stores: a lease or claim is judged on its store's clock, and a
    // store on a clock of its own saw the other replica's leases expire when the test moved the shared one
    // (the timeout's comment was then sent by both senders, now and then)
    const clock = new AdjustableClock();
    storeA = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: 'conversations-test-key' });
    pair = await startPair({ bots: ['ops'], clock, store: storeA, env: { INTRABOT_SECRET_KEY: 'conversations-test-key' } });
    storeB = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock: pair.clock, secretKey: 'conversations-test-key' });
    // the second replica: the same configuration and clock, its own connection to the same Redis
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-replica-b-'));
    const env = {
      ...process.env,
      INTRABOT_PORT: '0',
      INTRABOT_SANDBOX_PORT: new URL(pair.sandbox.baseUrl).port,
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('bots'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_BASE_URL: '',
      INTRABOT_TOKEN: '',
      INTRABOT_REDIS_URL: '',
      INTRABOT_BOTS: '',
      INTRABOT_SECRET_KEY: 'conversations-test-key',
    };
    replicaB = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: pair.clock, env, pollMs: 100, store: storeB, only: ['ops'] });
    await replicaB.start();
    const refs = await pair.refs();
    [ada] = refs.employee_ids as [number];
    wall = refs.company_wall_id;
  });

  afterAll(async () => {
    await replicaB?.close();
    await pair?.close();
    await storeA?.close();
    await storeB?.close();
    if (REDIS) await deleteRedisPrefix(REDIS, prefix);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A signed `comment.created` of Ada's on a post, as the platform would deliver it. */
  async function answerDelivery(postId: number, commentId: number, body: string): Promise<{ body: string; headers: Record<string, string> }> {
    const secret = (await storeA.secrets.get(webhookSecretName('sandbox', 'ops')))!;
    const at = Math.floor(pair.clock.now() / 1000);
    const created = new Date(pair.clock.now()).toISOString();
    const payload = {
      id: commentId,
      body,
      post_id: postId,
      wall_id: wall,
      author: { id: ada, name: 'Ada', email: 'ada@example.test' },
      created_at: created,
      updated_at: created,
    };
    const text = JSON.stringify({ id: randomUUID(), event: 'service.comment.created', version: 'v1', timestamp: at, customer: 'sandbox', payload });
    return { body: text, headers: { 'content-type': 'application/json', timestamp: String(at), signature: sign(secret, at, text) } };
  }

  const post = (url: string, delivery: { body: string; headers: Record<string, string> }) =>
    fetch(`${url}/hooks/sandbox/ops`, { method: 'POST', headers: delivery.headers, body: delivery.body }).then((r) => r.status);

  async function ask(): Promise<number> {
    const created = await pair.platform.employeePost(ada, { wall_id: wall, body: '/deploy api prod' });
    await waitForComment(pair, created.id, PROMPT);
    return created.id;
  }

  it('the same answer delivered to both replicas at once is handled once', async () => {
    const postId = await ask();
    const delivery = await answerDelivery(postId, 900_001, 'yes');
    const urls = [pair.runtime.inspect().url!, replicaB.inspect().url!];
    expect(await Promise.all(urls.map((url) => post(url, delivery)))).toEqual([200, 200]);
    await waitForComment(pair, postId, DEPLOYING);
    await pair.settle();
    expect((await thread(pair, postId)).filter((b) => b.startsWith(DEPLOYING))).toHaveLength(1);
  });

  it('two answers at once, one on each replica (a double post), deploy once', async () => {
    const postId = await ask();
    const first = await answerDelivery(postId, 900_002, 'yes');
    const second = await answerDelivery(postId, 900_003, 'yes!');
    expect(await Promise.all([post(pair.runtime.inspect().url!, first), post(replicaB.inspect().url!, second)])).toEqual([200, 200]);
    await waitForComment(pair, postId, DEPLOYING);
    await pair.settle();
    expect((await thread(pair, postId)).filter((b) => b.startsWith(DEPLOYING))).toHaveLength(1);
  });

  it('a timeout both replicas know of runs once', async () => {
    const postId = await ask();
    // past the deadline and a sweep: both replicas have the question armed
    await pair.platform.advance(11 * 60);
    await waitForComment(pair, postId, TIMED_OUT);
    await pair.settle();
    const comments = await pair.platform.commentsOn(postId);
    const seen = JSON.stringify(comments.map((c) => ({ id: c.id, body: String(c.body).slice(0, 30), author: c.author, created: c.created_at })));
    expect(
      comments.filter((c) => c.body === TIMED_OUT),
      `the thread: ${seen}`,
    ).toHaveLength(1);
  });
});

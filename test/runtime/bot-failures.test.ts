import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBots } from '../../src/bots/registry';
import type { QueueEntry } from '../../src/store/queue';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';

const FIXTURE_BOTS = resolve('test/fixtures/bots');

describe('one bot failing is that bot failure alone', () => {
  let pair: Pair;
  let wall: number;
  let employee: number;

  beforeAll(async () => {
    pair = await startPair({ botsDir: FIXTURE_BOTS, handlerTimeoutMs: 300 });
    const refs = directoryRefs(pair.sandbox.ctx)!;
    wall = refs.company_wall_id;
    employee = refs.employee_ids[1]!;
  });
  afterAll(async () => pair?.close());

  it('answers with the healthy bot while another throws and a third hangs past its time limit', async () => {
    const post = await pair.platform.employeePost(employee, { wall_id: wall, body: 'hello bots' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['echo: hello bots']);
  });

  it('does not answer its own replies: one echo per post, not a loop', async () => {
    const post = await pair.platform.employeePost(employee, { wall_id: wall, body: 'ping' });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    // the thrower's and the hanger's deliveries wait out their retries on the shared clock: the echo's work is what must play out
    await pair.settle({ bots: ['echo'] });
    expect((await pair.platform.commentsOn(post.id)).map((c) => c.body)).toEqual(['echo: ping']);
  });

  it('retries a failing delivery and then keeps it in the dead letters with its error', async () => {
    await pair.platform.employeePost(employee, { wall_id: wall, body: 'make thrower fail' });
    // the inbox retries after 5 s and 60 s on the shared clock: the clock moves past each retry once the
    // attempt before it has failed (the thrower's and the hanger's deliveries of this post waiting for their retry, or dead)
    const store = pair.runtime.inspect().store;
    const failing = async () =>
      [...(await store.inbox.list({ state: 'live' })), ...(await store.inbox.list({ state: 'dead' }))].filter(
        (e) => ['thrower', 'hanger'].includes(e.payload.bot) && JSON.stringify(e.payload).includes('make thrower fail'),
      );
    const failed = (e: QueueEntry, after: number) => e.state === 'dead' || (e.attempts > after && e.state === 'pending' && e.notBefore > pair.clock.now());
    let entries = await pair.platform.waitFor(failing, (es) => es.length === 2 && es.every((e) => failed(e, 0)));
    for (const seconds of [6, 61, 61]) {
      const before = new Map(entries.map((e) => [e.id, e.attempts]));
      pair.clock.advance(seconds * 1000);
      entries = await pair.platform.waitFor(failing, (es) => es.every((e) => failed(e, before.get(e.id) ?? 0)));
    }
    const dead = await pair.platform.waitFor(
      () => pair.runtime.inspect().store.inbox.list({ state: 'dead' }),
      (d) => d.some((e) => e.payload.bot === 'thrower'),
    );
    expect(dead.find((e) => e.payload.bot === 'thrower')?.deadReason).toContain('thrower always fails');
    const hung = await pair.platform.waitFor(
      () => pair.runtime.inspect().store.inbox.list({ state: 'dead' }),
      (d) => d.some((e) => e.payload.bot === 'hanger'),
    );
    expect(hung.find((e) => e.payload.bot === 'hanger')?.deadReason).toContain('time limit');
  });
});

describe('loading bots', () => {
  it('skips an invalid bot with an error naming the file, the line and the field, and loads the others', async () => {
    const registry = await loadBots(resolve('test/fixtures/bots-broken'), {});
    expect(registry.bots.map((b) => b.name)).toEqual(['good']);
    const messages = registry.failures.map((f) => f.error.message);
    expect(messages).toContainEqual(expect.stringMatching(/badyaml\/bot\.yaml:5 events\.1/));
    expect(messages).toContainEqual(expect.stringContaining('no index.ts'));
    // a module defineBot refuses, and one that does not compile: each named by its file and line
    const dir = resolve('test/fixtures/bots-broken');
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^${dir}/badmodule/index\\.ts:4 defineBot: on.post.deleted`)));
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^${dir}/badsyntax/index\\.ts:2 `)));
    // the bot's own config schema refusing a manifest value: the line of that value
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^${dir}/badconfig/bot\\.yaml:6 config\\.retries: `)));
  });

  it('skips a bot whose alert input cannot work, naming the input and field, and runs the others', async () => {
    const pair = await startPair({ botsDir: resolve('test/fixtures/bots-bad-alerts') });
    try {
      expect(pair.runtime.inspect().bots.map((b) => b.name)).toEqual(['good']);
      const [failure] = pair.runtime.inspect().failures;
      expect(failure?.error.message).toContain(`${resolve('test/fixtures/bots-bad-alerts/nocreds/bot.yaml')} alerts.0.options.mapping: `);
      expect(failure?.error.message).toContain('alert input "custom" of bot "nocreds"');
      const alert = await fetch(`${pair.runtime.inspect().url}/alerts/nocreds/custom`, {
        method: 'POST',
        headers: { authorization: 'Bearer a-token-of-our-own', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(alert.status).toBe(404);
    } finally {
      await pair.close();
    }
  });

  it('runs the valid bot of a name when another folder holds a bot of that name the runtime refuses (issue #12)', async () => {
    const botsDir = await mkdtemp(join(tmpdir(), 'intrabot-same-name-'));
    try {
      // an earlier folder: an echo whose alert input cannot work; a later one: the working echo
      await mkdir(join(botsDir, 'a-echo-alerts'));
      const broken = readFileSync(resolve('test/fixtures/bots-bad-alerts/nocreds/bot.yaml'), 'utf8').replace('name: nocreds', 'name: echo');
      await writeFile(join(botsDir, 'a-echo-alerts', 'bot.yaml'), broken);
      await writeFile(join(botsDir, 'a-echo-alerts', 'index.ts'), `import { defineBot } from '${resolve('src/index.ts')}';\nexport default defineBot({});\n`);
      await cp(resolve('test/fixtures/bots/echo'), join(botsDir, 'b-echo'), { recursive: true });
      await writeFile(
        join(botsDir, 'b-echo', 'index.ts'),
        readFileSync(resolve('test/fixtures/bots/echo/index.ts'), 'utf8').replace("'../../../../src'", `'${resolve('src/index.ts')}'`),
      );
      const pair = await startPair({ botsDir });
      try {
        expect(pair.runtime.inspect().bots.map((b) => b.dir)).toEqual([join(botsDir, 'b-echo')]);
        expect(pair.runtime.inspect().failures.map((f) => f.dir)).toEqual([join(botsDir, 'a-echo-alerts')]);
        const refs = directoryRefs(pair.sandbox.ctx)!;
        const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'anyone?' });
        const comments = await pair.platform.waitFor(
          () => pair.platform.commentsOn(post.id),
          (c) => c.length > 0,
        );
        expect(comments.map((c) => c.body)).toEqual(['echo: anyone?']);
      } finally {
        await pair.close();
      }
    } finally {
      await rm(botsDir, { recursive: true, force: true });
    }
  });
});

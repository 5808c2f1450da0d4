import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDev, watchBots, type DevSession } from '../../src/cli/commands/dev';
import { runNew } from '../../src/cli/commands/new';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl } from '../../src/testing';
import { captureIo, freePort, type CapturedIo } from './cli-io';
import { settleStore } from '../helpers/settle';
import { NOT_LOADED_NOTE } from '../../src/runtime/ingest/not-loaded-holds';

describe('intrabot dev', () => {
  let tmp: string;
  let botsDir: string;
  let io: CapturedIo;
  let stop: () => void;
  let exited: Promise<number>;
  let session: DevSession;
  let platform: SandboxControl;
  let inTheGap: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // inside the repository (an ES module package), as bots are: the cache-busting import needs it;
    // a dot folder, so test runners and the typecheck pass it by while it exists
    tmp = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.tmp-dev-'));
    botsDir = join(tmp, 'bots');
    expect(await runNew(['greeter'], captureIo({ INTRABOT_BOTS_DIR: botsDir }, tmp))).toBe(0);
    io = captureIo(
      {
        INTRABOT_PORT: String(await freePort()),
        INTRABOT_SANDBOX_PORT: String(await freePort()),
        INTRABOT_DATA_DIR: join(tmp, 'data'),
        INTRABOT_BOTS_DIR: botsDir,
        INTRABOT_LOG_LEVEL: 'silent',
      },
      tmp,
    );
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const ready = new Promise<DevSession>((resolve) => {
      exited = runDev([], { ...io, stopped, debounceMs: 100, onReady: resolve, onRestarting: () => inTheGap?.() });
    });
    session = await Promise.race([ready, exited.then((code) => Promise.reject(new Error(`dev exited ${code}: ${io.err}`)))]);
    platform = new SandboxControl(session.sandbox!.baseUrl);
  });
  afterAll(async () => {
    stop?.();
    await exited;
    rmSync(tmp, { recursive: true, force: true });
  });

  async function postHello(): Promise<number> {
    const refs = directoryRefs(session.sandbox!.ctx)!;
    return (await platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/greeter' })).id as number;
  }

  async function answerTo(postId: number): Promise<string | undefined> {
    const comments = await platform.waitFor(
      () => platform.commentsOn(postId),
      (c) => c.length > 0,
    );
    return comments[0]?.body as string | undefined;
  }

  const hello = async (): Promise<string | undefined> => answerTo(await postHello());

  async function edit(replace: string, by: string): Promise<void> {
    const file = join(botsDir, 'greeter', 'index.ts');
    const before = readFileSync(file, 'utf8');
    expect(before).toContain(replace);
    const reloads = session.reloads;
    writeFileSync(file, before.replace(replace, by));
    await platform.waitFor(
      async () => session.reloads,
      (n) => n > reloads && session.runtime !== undefined,
      10_000,
    );
  }

  it('starts the sandbox and the runtime with the bots and says it watches them', async () => {
    expect(io.out).toContain('bots: greeter');
    expect(io.out).toContain('watching bots');
    expect(io.out).toContain('a bot that fails to reload keeps its webhook: its deliveries wait in the inbox');
    expect(await hello()).toMatch(/^Hello, /);
  });

  it('reloads a bot whose module changed, and the new code answers', async () => {
    await edit(
      "ctx.reply({ template: 'hello', data: { greeting: ctx.config.greeting, name: cmd.user.name } })",
      "ctx.reply('Hello again, from the reloaded module!')",
    );
    expect(io.out).toContain('reloading (bots/greeter/index.ts changed)');
    expect(await hello()).toBe('Hello again, from the reloaded module!');
  });

  it("does not drop an event that arrives while the runtime restarts: the platform's retry reaches the new one", async () => {
    let postId = 0;
    inTheGap = async () => {
      postId = await postHello();
      // the delivery is attempted now, while nothing listens, and fails
      const attempts = await platform.deliveries({ event: 'service.post.created' });
      const ours = attempts.filter((a) => String(a.body).includes(`"id":${postId},`));
      expect(ours.map((a) => a.ok)).toEqual([false]);
    };
    await edit("'Hello again, from the reloaded module!'", "'Third version here'");
    inTheGap = undefined;
    // the new runtime gets it by recovering what it missed at start, or from the platform's retry a
    // minute later (spec: Outgoing webhooks); either way it is answered once, by the new code
    await platform.advance(61);
    expect(await answerTo(postId)).toBe('Third version here');
    // a second answer would show itself before the runtime is idle (as in the end-to-end loop test)
    await settleStore(session.runtime!.inspect().store, platform);
    expect((await platform.commentsOn(postId)).map((c) => c.body)).toEqual(['Third version here']);
  });

  it('reports a runtime that fails to close on reload, and goes on with the new one', async () => {
    const runtime = session.runtime!;
    const close = runtime.close.bind(runtime);
    // closed, then failing: before, the reload's rejection went unhandled (the watcher does not await it)
    vi.spyOn(runtime, 'close').mockImplementationOnce(async () => {
      await close();
      throw new Error('the store would not close');
    });
    await edit("'Third version here'", "'Fourth version here'");
    expect(io.err).toContain('closing the runtime failed: the store would not close');
    expect(await hello()).toBe('Fourth version here');
  });

  it("runs the new code of a bot's helper file, not only of its index.ts (a module cache would keep the old one)", async () => {
    const helper = join(botsDir, 'greeter', 'words.ts');
    writeFileSync(helper, "export const WORDS = 'words, first edition';\n");
    const file = join(botsDir, 'greeter', 'index.ts');
    writeFileSync(file, `import { WORDS } from './words';\n${readFileSync(file, 'utf8')}`);
    await edit("'Fourth version here'", 'WORDS');
    expect(await hello()).toBe('words, first edition');
    const reloads = session.reloads;
    writeFileSync(helper, "export const WORDS = 'words, second edition';\n");
    await platform.waitFor(
      async () => session.reloads,
      (n) => n > reloads && session.runtime !== undefined,
      10_000,
    );
    expect(await hello()).toBe('words, second edition');
  });

  it('holds what is delivered to a bot that failed to reload (200, not 404), and handles it once when the bot loads again', async () => {
    const file = join(botsDir, 'greeter', 'index.ts');
    const good = readFileSync(file, 'utf8');
    await edit('export default defineBot({', 'export default defineBot({{');
    expect(session.runtime!.inspect().failures.map((f) => f.name)).toEqual(['greeter']);
    expect(io.err).toContain('its deliveries wait in the inbox until it loads again');
    const postId = await postHello();
    // spec: Outgoing webhooks: a 2xx answers the delivery, so the platform does not retry it
    const attempts = (await platform.deliveries({ event: 'service.post.created' })).filter((a) => String(a.body).includes(`"id":${postId},`));
    expect(attempts.map((a) => a.ok)).toEqual([true]);
    const store = session.runtime!.inspect().store;
    const held = await platform.waitFor(
      async () =>
        (await store.inbox.list({ state: 'live' })).filter((e) => e.payload.bot === 'greeter' && JSON.stringify(e.payload).includes(`"id":${postId},`)),
      (entries) => entries.length === 1 && entries[0]!.lastError === NOT_LOADED_NOTE,
    );
    expect(held[0]!.attempts).toBe(0);
    expect(await store.inbox.list({ state: 'dead' })).toEqual([]);
    expect(await platform.commentsOn(postId)).toEqual([]);

    const reloads = session.reloads;
    writeFileSync(file, good);
    await platform.waitFor(
      async () => session.reloads,
      (n) => n > reloads && session.runtime !== undefined,
      10_000,
    );
    expect(session.runtime!.inspect().failures).toEqual([]);
    expect(await answerTo(postId)).toBe('words, second edition');
    await settleStore(session.runtime!.inspect().store, platform);
    expect((await platform.commentsOn(postId)).map((c) => c.body)).toEqual(['words, second edition']);
  });

  it('prints where the web console is, once', () => {
    const url = session.runtime!.inspect().url!;
    expect(io.out).toContain(`console: ${url}/console/`);
    expect(io.out.split('console: ').length).toBe(2);
  });

  it("reloads for a bot's own files, not for a SQLite store kept beside the bots", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-watch-'));
    const changed: string[] = [];
    const watcher = watchBots(dir, 20, (file) => changed.push(file));
    try {
      for (const name of ['intrabot.db', 'intrabot.db-wal', 'intrabot.db-shm']) writeFileSync(join(dir, name), 'x');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(changed).toEqual([]);
      writeFileSync(join(dir, 'index.ts'), 'export {};');
      await vi.waitFor(() => expect(changed).toEqual(['index.ts']), { timeout: 5_000 });
    } finally {
      watcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on an unknown flag', async () => {
    const bad = captureIo({});
    expect(await runDev(['--watch-everything'], { ...bad, stopped: Promise.resolve() })).toBe(2);
  });
});

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defineBot, type AuditRecord, type HandlerInput, type Middleware } from '../../src';
import { renderAudit } from '../../src/cli/commands/deliveries';
import { compose } from '../../src/bots/middleware';
import { formatWait } from '../../src/bots/cooldown';
import { cooldown } from '../../src';
import { startPair, testBot, type Pair, type TestBot } from '../../src/testing';
import { postAlertTo } from '../alerts/wiring/alert-requests';

// issue #16, item 2: middleware around every event, command, job and report (docs/middleware.md)
const GUARDED = 'test/fixtures/bots-middleware/guarded';
const ada = { id: 12, name: 'Ada Lovelace' };
const grace = { id: 13, name: 'Grace Hopper' };

/** The "trail ..." log lines the fixture's middleware and handlers write, in order. */
function trailOf(bot: TestBot): string[] {
  return bot.logs.filter((line) => line.message.startsWith('trail ')).map((line) => line.message.slice('trail '.length));
}

/** A runtime-wide middleware that writes its own trail line before and after the rest. */
const runtimeWide: Middleware = async (input, ctx, next) => {
  ctx.log.info(`trail runtime:${input.kind}:${input.what}`);
  await next();
  ctx.log.info('trail runtime:after');
};

describe('middleware', () => {
  it('runs around a command: the runtime-wide list outermost, then the bot’s own in order, then the handler', async () => {
    const bot = await testBot(GUARDED, { middleware: [runtimeWide] });
    const sent = await bot.command('/deploy payments', { user: ada });
    expect(trailOf(bot)).toEqual(['runtime:command:/deploy', 'bot-outer:command:/deploy', 'handler:deploy', 'bot-outer:after', 'runtime:after']);
    // a value put on ctx.locals by a middleware reaches the handler, typed through its key
    expect(sent).toEqual([{ kind: 'comment', postId: 5001, text: 'Deploying payments for Ada Lovelace.' }]);
  });

  it('runs around event handlers and jobs too, each named as the delivery log names it', async () => {
    const bot = await testBot(GUARDED);
    await bot.event('post.created', {
      id: 77,
      wall_id: 1,
      wall_name: 'Company',
      body: 'hello',
      author: { id: 12, name: 'Ada Lovelace', email: 'ada@example.test' },
      created_at: '2026-06-01T09:00:00Z',
      updated_at: '2026-06-01T09:00:00Z',
    } as never);
    await bot.job('tick');
    expect(trailOf(bot)).toEqual([
      'bot-outer:event:on.post.created',
      'handler:post 77',
      'bot-outer:after',
      'bot-outer:job:job tick',
      'handler:tick',
      'bot-outer:after',
    ]);
  });

  it('short-circuits: a middleware that answers and does not call next keeps the handler from running', async () => {
    const bot = await testBot(GUARDED);
    expect(await bot.command('/deploy blocked', { user: ada })).toEqual([{ kind: 'comment', postId: 5001, text: 'Not now.' }]);
    expect(trailOf(bot)).not.toContain('handler:deploy');
  });

  it("catches a handler's error: what it sends instead is sent, and the run succeeds", async () => {
    const bot = await testBot(GUARDED);
    expect(await bot.command('/fail', { user: ada })).toEqual([{ kind: 'comment', postId: 5001, text: 'Something went wrong; the team has been told.' }]);
    expect(bot.outcome).toEqual({ status: 'handled', what: '/fail' });
  });

  it('is refused at load when `use` holds something other than functions, naming the field', () => {
    expect(() => defineBot({ use: ['audit' as never] })).toThrow(/use\.0/);
  });
});

describe('auditLog', () => {
  it('records who set a command off, where, what ran and what the bot sent', async () => {
    const bot = await testBot(GUARDED, { now: '2026-06-01T09:00:00Z' });
    await bot.command('/deploy payments', { user: ada });
    expect(bot.audit).toEqual([
      {
        at: Date.parse('2026-06-01T09:00:00Z'),
        tenant: 'sandbox',
        bot: 'guarded',
        kind: 'command',
        what: '/deploy',
        who: { id: 12, name: 'Ada Lovelace' },
        where: 'post 5001 on wall 1',
        did: ['comment to post 5001'],
        outcome: 'done',
      },
    ]);
  });

  it('records a failed run with its error, and lets the error through so the run still fails', async () => {
    const bot = await testBot(GUARDED);
    await expect(bot.job('broken')).rejects.toThrow('the job broke');
    expect(bot.audit).toMatchObject([{ kind: 'job', what: 'job broken', did: [], outcome: 'failed', error: 'the job broke' }]);
    expect(bot.audit[0]).not.toHaveProperty('who');
  });

  it('records what was held back, and a run that sent nothing', async () => {
    const bot = await testBot(GUARDED);
    await bot.command('/deploy payments', { user: ada });
    await bot.command('/deploy payments', { user: ada });
    await bot.command('/deploy payments', { user: ada });
    expect(bot.audit.map((r) => r.did)).toEqual([['comment to post 5001'], ['comment to post 5002'], []]);
  });
});

// issue #25, item 1: alerts go through the same chain as every other trigger
describe('alert messages through the middleware', () => {
  const firing = JSON.parse(readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8')) as unknown;

  it('runs the runtime-wide list and the bot’s own around each alert message, named after its input', async () => {
    const bot = await testBot(GUARDED, { middleware: [runtimeWide] });
    const run = await bot.alert('am', firing);
    expect(run.queued).toBeGreaterThan(0);
    expect(trailOf(bot).slice(0, 3)).toEqual(['runtime:alert:alert input am', 'bot-outer:alert:alert input am', 'bot-outer:after']);
  });

  it('is recorded by auditLog: what ran, the target, and the post it queued', async () => {
    const bot = await testBot(GUARDED, { now: '2026-06-01T09:00:00Z' });
    const run = await bot.alert('am', firing);
    expect(bot.audit).toHaveLength(run.queued);
    expect(bot.audit[0]).toEqual({
      at: Date.parse('2026-06-01T09:00:00Z'),
      tenant: 'sandbox',
      bot: 'guarded',
      kind: 'alert',
      what: 'alert input am',
      where: 'target team',
      did: ['post to wall Engineering'],
      outcome: 'done',
    });
  });

  it('is not queued when a middleware does not call next, and the route counts only what was queued', async () => {
    const drop: Middleware = async (input, _ctx, next) => {
      if (input.kind !== 'alert') await next();
    };
    const bot = await testBot(GUARDED, { middleware: [drop] });
    const run = await bot.alert('am', firing);
    expect(run).toMatchObject({ queued: 0, sent: [], posts: [] });
    expect(run.accepted).toBeGreaterThan(0);
  });
});

describe('alert messages through a failing middleware', () => {
  it('fails the notification and queues nothing when a middleware throws, so the tool retries it', async () => {
    const firing = JSON.parse(readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8')) as unknown;
    let broken = true;
    const flaky: Middleware = async (_input, _ctx, next) => {
      if (broken) throw new Error('audit store away');
      await next();
    };
    const bot = await testBot(GUARDED, { middleware: [flaky] });
    await expect(bot.alert('am', firing)).rejects.toMatchObject({ code: 'alerts_not_queued' });
    expect(bot.sent).toEqual([]);
    broken = false;
    // the alerts kept their state: the retry posts them
    expect((await bot.alert('am', firing)).queued).toBeGreaterThan(0);
  });
});

describe('compose', () => {
  const input: HandlerInput = { kind: 'job', what: 'job x', job: { name: 'x', slot: 0 } };
  const ctx = { locals: {} } as never;

  it('runs the handler alone when the chain is empty', async () => {
    let ran = 0;
    await compose([])(input, ctx, () => ran++);
    expect(ran).toBe(1);
  });

  it('refuses a second call of next, so a handler never runs twice', async () => {
    let ran = 0;
    const twice: Middleware = async (_input, _ctx, next) => {
      await next();
      await next();
    };
    await expect(compose([twice])(input, ctx, () => ran++)).rejects.toThrow(/next\(\) called twice/);
    expect(ran).toBe(1);
  });

  it('lets a middleware see the handler’s error and rethrow it', async () => {
    const seen: unknown[] = [];
    const watch: Middleware = async (_input, _ctx, next) => {
      try {
        await next();
      } catch (error) {
        seen.push(error);
        throw error;
      }
    };
    await expect(
      compose([watch])(input, ctx, () => {
        throw new Error('broken');
      }),
    ).rejects.toThrow('broken');
    expect(seen).toHaveLength(1);
  });
});

describe('cooldown', () => {
  it('holds back a user who uses a command again within the cooldown, answering once, politely, with the wait', async () => {
    const bot = await testBot(GUARDED, { now: '2026-06-01T09:00:00Z' });
    await bot.command('/deploy payments', { user: ada });
    bot.clock.advance(5_000);
    expect(await bot.command('/deploy payments', { user: ada })).toEqual([
      { kind: 'comment', postId: 5002, text: 'Ada Lovelace, /deploy can be used again in 25 s.' },
    ]);
    // further tries in the same cooldown are dropped without a word
    expect(await bot.command('/deploy payments', { user: ada })).toEqual([]);
    expect(trailOf(bot).filter((line) => line === 'handler:deploy')).toHaveLength(1);
  });

  it('lets the user run the command again once the cooldown has passed on the runtime clock', async () => {
    const bot = await testBot(GUARDED, { now: '2026-06-01T09:00:00Z' });
    await bot.command('/deploy payments', { user: ada });
    bot.clock.advance(30_000);
    expect(await bot.command('/deploy search', { user: ada })).toEqual([{ kind: 'comment', postId: 5002, text: 'Deploying search for Ada Lovelace.' }]);
  });

  it('holds each user apart, and leaves commands it does not name alone', async () => {
    const bot = await testBot(GUARDED);
    await bot.command('/deploy payments', { user: ada });
    expect(await bot.command('/deploy payments', { user: grace })).toEqual([{ kind: 'comment', postId: 5002, text: 'Deploying payments for Grace Hopper.' }]);
    await bot.command('/ping', { user: ada });
    expect(await bot.command('/ping', { user: ada })).toEqual([{ kind: 'comment', postId: 5004, text: 'pong' }]);
  });

  it('refuses bad options, naming the field', () => {
    expect(() => cooldown({ per: 'soon' })).toThrow(/cooldown\.per/);
    expect(() => cooldown({ per: '30s', commands: [] })).toThrow(/cooldown\.commands/);
  });

  it('says a wait the way a person reads it', () => {
    expect([formatWait(400), formatWait(25_000), formatWait(119_000), formatWait(150_000), formatWait(3 * 3_600_000)]).toEqual([
      '1 s',
      '25 s',
      '119 s',
      '3 min',
      '3 h',
    ]);
  });
});

describe('middleware over real HTTP', () => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('runs the runtime-wide list and the bot’s own around a command an employee posts', async () => {
    const seen: string[] = [];
    const audit: Middleware = async (input, _ctx, next) => {
      seen.push(`${input.kind} ${input.what}`);
      await next();
    };
    pair = await startPair({ botsDir: 'test/fixtures/bots-middleware', middleware: [audit] });
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/deploy blocked' });
    await pair.settle();
    expect(seen).toContain('command /deploy');
    expect((await pair.platform.commentsOn(post.id)).map((c) => c.body)).toEqual(['Not now.']);
    // the audit log is in the store, read through the admin route `intrabot deliveries --audit` uses
    const answer = await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=audit`);
    const records = ((await answer.json()) as { data: AuditRecord[] }).data;
    expect(records).toMatchObject([
      {
        bot: 'guarded',
        what: '/deploy',
        who: { id: refs.employee_ids[0] },
        where: `post ${post.id} on wall ${refs.company_wall_id}`,
        did: [`comment to post ${post.id}`],
      },
    ]);
    expect(renderAudit(records, { stdout: () => {}, stderr: () => {} } as never, () => 'UTC')).toContain(`comment to post ${post.id}`);
  });

  // issue #25, item 1: an alert posted by a monitoring tool runs through the same chain, and is audited
  it('runs the runtime-wide list and auditLog around an alert a monitoring tool posts', async () => {
    const seen: string[] = [];
    const watch: Middleware = async (input, _ctx, next) => {
      seen.push(`${input.kind} ${input.what}`);
      await next();
    };
    pair = await startPair({ botsDir: 'test/fixtures/bots-middleware', middleware: [watch] });
    const res = await postAlertTo(
      pair,
      { bot: 'guarded', input: 'am', token: 'guarded-alert-token' },
      readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8'),
    );
    expect(res.status).toBe(202);
    await pair.settle();
    expect(seen).toContain('alert alert input am');
    const answer = await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=audit`);
    const records = ((await answer.json()) as { data: AuditRecord[] }).data;
    expect(records.filter((r) => r.kind === 'alert')).toMatchObject([{ bot: 'guarded', what: 'alert input am', where: 'target team', outcome: 'done' }]);
    expect(records.find((r) => r.kind === 'alert')?.did[0]).toMatch(/^post to wall \d+$/);
  });
});

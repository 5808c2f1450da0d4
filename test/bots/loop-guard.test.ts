import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { LoopGuard, SENT_TEXT_TTL_MS } from '../../src/bots/loop-guard';
import { openStore, type Store } from '../../src/store';

describe('LoopGuard', () => {
  let store: Store;
  let clock: AdjustableClock;
  let guard: LoopGuard;

  beforeEach(async () => {
    clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 9), frozen: true });
    store = await openStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'intrabot-loop-')), 'store.db') }, { clock });
    guard = new LoopGuard(store.kv('runtime:loop'));
    await guard.noteBotUsers('acme', { kudos: 50, welcome: 51 }, [50, 51, 90]);
  });
  afterEach(async () => store.close());

  const post = (authorId: number, extra: Record<string, unknown> = {}) => ({
    id: 1000 + authorId,
    body: 'hello',
    wall_id: 3,
    author: { id: authorId, name: 'x', email: 'x@x' },
    ...extra,
  });

  it('ignores a post by the bot itself', async () => {
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(50) })).toEqual({ ignore: true, reason: 'own_bot' });
  });

  it("ignores our other bots' posts as runtime-created content, even when a bot reacts to bots", async () => {
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(51), reactToBots: true })).toMatchObject({ ignore: true });
  });

  it("ignores other integrations' bots unless the manifest asks to react to bots", async () => {
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(90) })).toEqual({ ignore: true, reason: 'other_bot' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(90), reactToBots: true })).toEqual({ ignore: false });
  });

  it('ignores a post whose id the runtime created, and handles an employee post', async () => {
    await guard.noteCreated('acme', 'post', 1007);
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(7) })).toEqual({ ignore: true, reason: 'runtime_created' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(8) })).toEqual({ ignore: false });
  });

  it('recognises an incoming-webhook post by its text only for a short while', async () => {
    await guard.noteSentText('acme', 'Deploy finished');
    const payload = post(8, { body: 'Deploy finished' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload })).toEqual({ ignore: true, reason: 'runtime_text' });
    clock.advance(SENT_TEXT_TTL_MS + 1);
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload })).toEqual({ ignore: false });
  });

  it("takes one post per sending of a text for the webhook's, not a later identical post by an employee", async () => {
    await guard.noteSentText('acme', 'Deploy finished');
    const webhooks = post(8, { id: 2001, body: 'Deploy finished' });
    const employees = post(9, { id: 2002, body: 'Deploy finished' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: webhooks })).toEqual({ ignore: true, reason: 'runtime_text' });
    // every bot checks the same post and gets the same answer
    expect(await guard.check({ tenant: 'acme', bot: 'welcome', event: 'post.created', payload: webhooks })).toEqual({ ignore: true, reason: 'runtime_text' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: employees })).toEqual({ ignore: false });
    // sent twice: two posts are the webhook's
    await guard.noteSentText('acme', 'Deploy finished');
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: employees })).toEqual({ ignore: true, reason: 'runtime_text' });
  });

  it('does not take a comment for an incoming-webhook post by its text', async () => {
    await guard.noteSentText('acme', 'Deploy finished');
    const comment = post(8, { body: 'Deploy finished', post_id: 9 });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'comment.created', payload: comment })).toEqual({ ignore: false });
  });

  it("ignores content by the token's system user, learned from what the runtime created (spec: Authentication, 4)", async () => {
    await guard.noteTokenUser('acme', { id: 3, type: 'system' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(3) })).toEqual({ ignore: true, reason: 'token_user' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'comment.created', payload: { ...post(3), post_id: 9 } })).toEqual({
      ignore: true,
      reason: 'token_user',
    });
  });

  it('does not silence an employee whose token the runtime uses: only what it remembers creating is theirs to ignore', async () => {
    await guard.noteTokenUser('acme', { id: 3, type: 'system' });
    // the token turns out to be attributed to its creator, an employee
    await guard.noteTokenUser('acme', { id: 3, type: 'default' });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(3) })).toEqual({ ignore: false });
    // an author whose type is not given is not taken for the system user either
    await guard.noteTokenUser('acme', { id: 3 });
    expect(await guard.check({ tenant: 'acme', bot: 'kudos', event: 'post.created', payload: post(3) })).toEqual({ ignore: false });
  });

  it('keeps tenants apart', async () => {
    await guard.noteCreated('acme', 'post', 1007);
    expect(await guard.check({ tenant: 'globex', bot: 'kudos', event: 'post.created', payload: post(7) })).toEqual({ ignore: false });
  });
});

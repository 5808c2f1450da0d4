import { describe, expect, it } from 'vitest';
import { alertSample, testBot } from 'intrabot/testing';

const fixture = (name: string): unknown => JSON.parse(alertSample(name));
const BOT = new URL('.', import.meta.url);
const OPS_WALL = 4;
const ada = { id: 7, name: 'Ada Lovelace' };
const grace = { id: 8, name: 'Grace Hopper' };

/** The alerts bot with one firing Alertmanager post on the Operations wall; `edits()`: the post edits it sent so far. */
async function firing() {
  const bot = await testBot(BOT, { walls: { Operations: OPS_WALL } });
  const run = await bot.alert('alertmanager', fixture('alertmanager-firing.json'));
  const post = run.posts.find((p) => p.text.includes('HighHTTPErrorRate'))!;
  const edits = () => bot.sent.filter((s) => s.kind === 'post-edit');
  const on = { on: post.postId, wall: { id: OPS_WALL, name: 'Operations' } };
  return { bot, post, edits, on };
}

describe('alerts bot: acknowledging an alert from the wall', () => {
  it('an "ack" comment under a firing post edits the post to show who took it, and answers under it', async () => {
    const { bot, post, edits, on } = await firing();
    const sent = await bot.comment('ack', { ...on, user: ada });
    expect(sent).toEqual([
      { kind: 'post-edit', wall: OPS_WALL, postId: post.postId, text: `${post.text}\n\n✋ Acknowledged by Ada Lovelace` },
      { kind: 'comment', postId: post.postId, text: '✋ Ada Lovelace acknowledged these 3 alerts.' },
    ]);
  });

  it('/ack does the same as the word', async () => {
    const { bot, edits, on } = await firing();
    await bot.comment('/ack', { ...on, user: ada });
    expect(edits()).toEqual([expect.objectContaining({ text: expect.stringMatching(/✋ Acknowledged by Ada Lovelace$/) })]);
  });

  it('keeps the first acknowledgement: a second one is told who was first and edits nothing', async () => {
    const { bot, edits, on } = await firing();
    await bot.comment('ack', { ...on, user: ada });
    expect(await bot.comment('ACK', { ...on, user: grace })).toEqual([expect.objectContaining({ text: 'Already acknowledged by Ada Lovelace.' })]);
    expect(edits()).toHaveLength(1);
  });

  it('an acknowledgement after the alerts resolved changes nothing, and says so', async () => {
    const { bot, post, on } = await firing();
    const resolved = await bot.alert('alertmanager', fixture('alertmanager-resolved.json'));
    expect(resolved.sent).toContainEqual(expect.objectContaining({ kind: 'comment', postId: post.postId }));
    expect(await bot.comment('ack', { ...on, user: ada })).toEqual([
      expect.objectContaining({ kind: 'comment', text: 'These alerts have resolved: there is nothing left to acknowledge.' }),
    ]);
  });

  it('keeps the post current: firing, then acknowledged, then resolved, each an edit that keeps the lines before', async () => {
    const { bot, post, on } = await firing();
    await bot.comment('ack', { ...on, user: ada });
    const resolved = await bot.alert('alertmanager', fixture('alertmanager-resolved.json'));
    expect(resolved.sent).toContainEqual({
      kind: 'post-edit',
      wall: OPS_WALL,
      postId: post.postId,
      text: `${post.text}\n\n✋ Acknowledged by Ada Lovelace\n✅ Resolved: all 3 alerts`,
    });
  });

  it('an acknowledgement reopens nothing: the resolution still answers the post, and a repeat still posts nothing', async () => {
    const { bot, post, on } = await firing();
    await bot.comment('ack', { ...on, user: ada });
    expect((await bot.alert('alertmanager', fixture('alertmanager-firing.json'))).sent).toEqual([]);
    const resolved = await bot.alert('alertmanager', fixture('alertmanager-resolved.json'));
    expect(resolved.sent).toContainEqual(expect.objectContaining({ kind: 'comment', postId: post.postId, text: expect.stringMatching(/resolved/i) }));
  });

  it('"ack" under a post that is not an alert post is an ordinary comment; /ack there says why nothing happens', async () => {
    const { bot, edits, on } = await firing();
    const elsewhere = { on: 4242, wall: { id: OPS_WALL } };
    expect(await bot.comment('ack', { ...elsewhere, user: ada })).toEqual([]);
    expect(await bot.comment('/ack', { ...elsewhere, user: ada })).toEqual([
      expect.objectContaining({ text: 'There is nothing to acknowledge here: this is not one of my alert posts.' }),
    ]);
    expect(await bot.comment('ack later, in a meeting', { ...on, user: ada })).toEqual([]);
    expect(edits()).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { type ApiCall, apiError, testBot } from 'intrabot/testing';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Json;
const forms = fixture('forms.json') as Record<string, Json>;
/** A form response as the sandbox delivers it (spec: Events, payload not shown). */
const response = (name: string) => fixture(name) as Json & { id: number };
const created = response('formresponse-created.json');
const anonymous = response('formresponse-created-anonymous.json');
const updated = response('formresponse-updated.json');

const NOW = '2026-12-03T09:30:00Z';
const BOT_USER = 9000;
const WALL = 1;

async function helpdesk(config: Json = {}) {
  const bot = await testBot(new URL('.', import.meta.url), {
    now: NOW,
    config: { wall: WALL, ...config },
    walls: { Company: WALL },
    api: {
      'GET /forms/{id}': ({ params }: ApiCall) => forms[String(params.id)] ?? apiError(404),
    },
  });
  return bot;
}

/** The request's post as the wall lists it once delivered (spec: Posts, Post). */
function postOnWall(id: number, body: string) {
  return { id, body, wall_id: WALL, wall_name: 'Company', author: { id: BOT_USER, name: 'Helpdesk Bot', email: '' }, created_at: NOW, updated_at: NOW };
}

describe('helpdesk: new requests', () => {
  it('posts a request of a desk form on the triage wall, with the requester and the answers by label', async () => {
    const bot = await helpdesk();
    const sent = await bot.event('formresponse.created', created);
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: WALL,
        text: [
          '🎫 Request #10: IT equipment request',
          'From: Grace Hopper · 3 Dec 2026, 09:15',
          'What do you need?: Laptop',
          'Why?: Current one is five years old',
          'Updates follow in the comments; /ticket 10 shows its state.',
        ].join('\n'),
      },
    ]);
  });

  it('never names the respondent of an anonymous form (spec: Events, formresponse.comment: author null)', async () => {
    const bot = await helpdesk();
    const [post] = await bot.event('formresponse.created', anonymous);
    expect(post).toMatchObject({ kind: 'post', wall: WALL });
    expect((post as { text: string }).text).toContain('From: anonymous');
    // nobody was looked up to guess who it was
    expect(bot.calls.map((c) => c.path)).toEqual(['/forms/2']);
  });

  it('keeps the respondent hidden when the form is anonymous even if a payload named one', async () => {
    const bot = await helpdesk();
    const [post] = await bot.event('formresponse.created', { ...anonymous, user: { id: 14, name: 'Grace Hopper', email: 'g@x' } });
    expect((post as { text: string }).text).not.toContain('Grace');
  });

  it('sends a request to the assignee its routing rule names, by direct message instead of the wall', async () => {
    const bot = await helpdesk({ forms: [{ id: 1, routes: [{ field: 'item', equals: 'laptop', assignee: 21 }] }] });
    const sent = await bot.event('formresponse.created', created);
    expect(sent).toEqual([{ kind: 'dm', userId: 21, text: expect.stringContaining('Routed to you by the helpdesk bot.') }]);
  });

  it('ignores a form the desk does not serve', async () => {
    const bot = await helpdesk();
    expect(await bot.event('formresponse.created', { ...created, id: 12, form_id: 7 })).toEqual([]);
    expect(bot.calls).toEqual([]);
  });

  it('stays silent on a whistleblower form should its event ever arrive (spec: Events, never dispatched for whistleblower forms)', async () => {
    const bot = await helpdesk({ forms: [{ id: 3 }] });
    expect(await bot.event('formresponse.created', { id: 13, form_id: 3, user: null, answers: { report: 'x' }, status: 'new' })).toEqual([]);
    bot.stub('GET /form-responses/13', { id: 13, form_id: 3, user: null, answers: { report: 'x' }, status: 'new' });
    expect(await bot.command('/ticket 13')).toEqual([{ kind: 'comment', postId: 5001, text: 'I know no request #13.' }]);
  });

  it('posts a request once when its delivery comes again', async () => {
    const bot = await helpdesk();
    await bot.event('formresponse.created', created);
    expect(await bot.event('formresponse.created', created)).toEqual([]);
  });

  it('finds the triage wall by name', async () => {
    const bot = await helpdesk({ wall: 'Helpdesk' });
    bot.stub('GET /walls', [
      { id: 4, name: 'Company' },
      { id: 7, name: 'Helpdesk' },
    ]);
    expect(await bot.event('formresponse.created', created)).toEqual([expect.objectContaining({ kind: 'post', wall: 7 })]);
  });
});

describe('helpdesk: updates', () => {
  it('comments status, assignee and deadline changes under the request post (spec: Events, formresponse.updated)', async () => {
    const bot = await helpdesk();
    const [post] = await bot.event('formresponse.created', created);
    bot.stub('GET /walls/{wall_id}/posts', [postOnWall(77, (post as { text: string }).text)]);
    const sent = await bot.event('formresponse.updated', updated);
    expect(sent).toEqual([
      {
        kind: 'comment',
        postId: 77,
        text: ['🎫 #10 (IT equipment request):', '• status: new → in_progress', '• deadline: 10 Dec 2026, 17:00', '• assigned to Linus Torvalds'].join('\n'),
      },
    ]);
  });

  it('finds the post once and comments the next updates without reading the wall again', async () => {
    const bot = await helpdesk();
    const [post] = await bot.event('formresponse.created', created);
    bot.stub('GET /walls/{wall_id}/posts', [postOnWall(76, 'Request #100: another'), postOnWall(77, (post as { text: string }).text)]);
    await bot.event('formresponse.updated', updated);
    const reads = bot.calls.length;
    const sent = await bot.event('formresponse.updated', { ...updated, status: 'resolved', assignees: [] });
    expect(sent).toEqual([
      { kind: 'comment', postId: 77, text: '🎫 #10 (IT equipment request):\n• status: in_progress → resolved\n• no longer assigned to Linus Torvalds' },
    ]);
    expect(bot.calls.length).toBe(reads);
  });

  it('says a request was deleted, and restored, from the delivery’s deleted_at (spec: Events, formresponse.updated)', async () => {
    const bot = await helpdesk();
    const [post] = await bot.event('formresponse.created', created);
    bot.stub('GET /walls/{wall_id}/posts', [postOnWall(77, (post as { text: string }).text)]);
    expect(await bot.event('formresponse.updated', { ...created, deleted_at: '2026-12-03T10:05:00+01:00' })).toEqual([
      { kind: 'comment', postId: 77, text: '🎫 #10 (IT equipment request):\n• the request was deleted' },
    ]);
    expect(await bot.event('formresponse.updated', created)).toEqual([
      { kind: 'comment', postId: 77, text: '🎫 #10 (IT equipment request):\n• the request was restored' },
    ]);
  });

  it('sends the updates of a routed request to its assignee', async () => {
    const bot = await helpdesk({ forms: [{ id: 1, routes: [{ field: 'item', equals: 'Laptop', assignee: 21 }] }] });
    await bot.event('formresponse.created', created);
    expect(await bot.event('formresponse.updated', updated)).toEqual([
      { kind: 'dm', userId: 21, text: expect.stringContaining('• status: new → in_progress') },
    ]);
  });

  it('waits, by the inbox’s retries, for a request post that has not reached the wall yet', async () => {
    const bot = await helpdesk();
    await bot.event('formresponse.created', created);
    bot.stub('GET /walls/{wall_id}/posts', []);
    await expect(bot.event('formresponse.updated', updated)).rejects.toThrow('the post of request #10 is not on wall 1 yet');
    // an hour on, the post is taken as gone: the update is posted on its own
    bot.clock.advance(61 * 60_000);
    expect(await bot.event('formresponse.updated', updated)).toEqual([{ kind: 'post', wall: WALL, text: expect.stringContaining('🎫 #10') }]);
  });

  it('says nothing for an update that changes nothing it shows, or for a request it never posted', async () => {
    const bot = await helpdesk();
    await bot.event('formresponse.created', created);
    expect(await bot.event('formresponse.updated', { ...created, is_hidden: true })).toEqual([]);
    expect(await bot.event('formresponse.updated', { ...updated, id: 99 })).toEqual([]);
  });
});

describe('helpdesk: /ticket', () => {
  it('answers with the state of a request it keeps', async () => {
    const bot = await helpdesk();
    await bot.event('formresponse.created', created);
    bot.stub('GET /walls/{wall_id}/posts', [postOnWall(77, 'Request #10: IT equipment request')]);
    await bot.event('formresponse.updated', updated);
    expect(await bot.command('/ticket 10')).toEqual([
      {
        kind: 'comment',
        postId: 5001,
        text: '🎫 #10 (IT equipment request)\nStatus: in_progress\nAssigned to: Linus Torvalds\nDeadline: 10 Dec 2026, 17:00',
      },
    ]);
  });

  it('reads a request of a desk form it has not seen from the platform', async () => {
    const bot = await helpdesk();
    bot.stub('GET /form-responses/{id}', { ...updated, id: 4 });
    expect(await bot.command('/ticket #4')).toEqual([{ kind: 'comment', postId: 5001, text: expect.stringContaining('Status: in_progress') }]);
  });

  it('answers a response of another form, or none, as unknown', async () => {
    const bot = await helpdesk();
    bot.stub('GET /form-responses/7', { ...created, id: 7, form_id: 3 });
    bot.stub('GET /form-responses/8', () => apiError(404));
    expect(await bot.command('/ticket 7')).toEqual([{ kind: 'comment', postId: 5001, text: 'I know no request #7.' }]);
    expect(await bot.command('/ticket 8')).toEqual([{ kind: 'comment', postId: 5002, text: 'I know no request #8.' }]);
    expect(await bot.command('/ticket soon')).toEqual([{ kind: 'comment', postId: 5003, text: 'Usage: /ticket <id>, e.g. /ticket 12' }]);
  });
});

import { describe, expect, it, onTestFinished } from 'vitest';
import { createServer } from 'node:http';
import { createBotContext, type EntrySink, type ReplySource, type WallRef } from '../../src/bots/create-bot-context';
import { WallNotFoundError } from '../../src/bots/provision/wall-names';
import { BotManifestSchema } from '../../src/bots/manifest';
import type { EnqueueOptions } from '../../src/outbox/outbox';
import type { OutboxEntryInput } from '../../src/outbox/entry';
import { createTemplateEngine } from '../../src/templates';

/** Walls as a stored listing would answer: Engineering is 7, Operatons is missing. */
const listedWalls = async (name: string, field: string): Promise<WallRef> => {
  if (name === 'Engineering') return { wallId: 7 };
  throw new WallNotFoundError(field, 't', name);
};

function contextWith(
  targets: Record<string, unknown>,
  extra: {
    reply?: 'comment' | 'post' | 'dm';
    source?: ReplySource;
    userId?: number | undefined;
    wallOf?: (name: string, field: string) => Promise<WallRef>;
    now?: number;
    timezone?: string;
  } = {},
) {
  const sent: { entry: OutboxEntryInput; options: EnqueueOptions | undefined }[] = [];
  const stashed: Buffer[] = [];
  const sink: EntrySink = {
    enqueue: async (entry, options) => {
      sent.push({ entry, options });
      return { id: `e${sent.length}` };
    },
    stashMedia: async (data) => {
      stashed.push(Buffer.from(data));
      return `blob${stashed.length}`;
    },
  };
  const manifest = BotManifestSchema.parse({ name: 'probe', display_name: 'Probe', targets, ...(extra.reply ? { reply: extra.reply } : {}) });
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const ctx = createBotContext({
    tenant: { id: 't', timezone: extra.timezone ?? 'Europe/Berlin' },
    clock: { now: () => extra.now ?? Date.UTC(2026, 5, 10, 9) },
    bot: { name: 'probe', manifest, userId: 'userId' in extra ? extra.userId : 42 },
    config: {},
    api: {} as never,
    sink,
    kv: {} as never,
    templates: createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'en-GB' }),
    log: silent,
    signal: new AbortController().signal,
    wallOf: extra.wallOf ?? listedWalls,
    source: extra.source,
  });
  return { ctx, sent, stashed };
}

describe('the handler context', () => {
  it('posts to a wall target as the bot user, resolving a wall given by name', async () => {
    const { ctx, sent } = contextWith({ team: { wall: 'Engineering' } });
    await ctx.post('team', 'Deploy finished');
    expect(sent[0]?.entry).toEqual({ kind: 'post', tenant: 't', wallId: 7, body: 'Deploy finished', bot: 'probe', botUserId: 42 });
  });

  it('refuses a target whose wall the tenant lacks, naming the target and the wall, and queues nothing', async () => {
    const { ctx, sent } = contextWith({ ops: { wall: 'Operatons' } });
    await expect(ctx.post('ops', 'x')).rejects.toThrow(/targets\.ops\.wall: no wall named "Operatons" on tenant t/);
    expect(sent).toHaveLength(0);
  });

  it('queues a post to a wall known by name only, and as its bot alone, while provisioning has not finished', async () => {
    const { ctx, sent } = contextWith({ team: { wall: 'Engineering' } }, { userId: undefined, wallOf: async (name) => ({ wallName: name }) });
    await ctx.post('team', 'Deploy finished');
    await ctx.dm(8, 'hello');
    expect(sent.map((s) => s.entry)).toEqual([
      { kind: 'post', tenant: 't', wallName: 'Engineering', body: 'Deploy finished', bot: 'probe' },
      { kind: 'dm', tenant: 't', userId: 8, bot: 'probe', text: 'hello' },
    ]);
  });

  it("passes a target's on_uncertain to the outbox, so a chat message can be at most once", async () => {
    const { ctx, sent } = contextWith({ room: { chat: 2, on_uncertain: 'drop' }, loud: { chat: 3 } });
    await ctx.chat('room', 'quiet please');
    await ctx.chat(3, 'default is resend');
    expect(sent.map((s) => s.options)).toEqual([{ onUncertain: 'drop' }, {}]);
    expect(sent[0]?.entry).toMatchObject({ kind: 'incoming', action: 'chat_message', payload: { text: 'quiet please' } });
  });

  it('refuses an unknown target naming the ones that exist', async () => {
    const { ctx } = contextWith({ team: { wall: 3 } });
    await expect(ctx.post('nowhere', 'x')).rejects.toThrow(/unknown target "nowhere" \(targets: team\)/);
  });

  it('refuses on_uncertain values other than resend and drop, naming the field', () => {
    expect(() => BotManifestSchema.parse({ name: 'p', display_name: 'P', targets: { room: { chat: 2, on_uncertain: 'maybe' } } })).toThrow(/on_uncertain/);
  });

  it('comments on a post by id, as the token user (spec: Comments carry no bot_user_id)', async () => {
    const { ctx, sent } = contextWith({});
    await ctx.comment(12, 'noted');
    expect(sent[0]?.entry).toEqual({ kind: 'comment', tenant: 't', postId: 12, body: 'noted' });
  });

  it('refuses media in a comment instead of dropping it: comments carry text only (spec: Comments, body { body })', async () => {
    const source = { postId: 12, wallId: 3, authorId: 8 };
    const { ctx, sent } = contextWith({}, { reply: 'comment', source });
    const withMedia = { text: 'chart', media: [{ type: 'image' as const, data: Buffer.from('png'), filename: 'c.png' }] };
    await expect(ctx.comment(12, withMedia)).rejects.toThrow(/media: ctx.comment writes a comment, and comments carry text only/);
    await expect(ctx.reply(withMedia)).rejects.toThrow(/media: ctx.reply/);
    expect(sent).toHaveLength(0);
  });

  it('replies as the manifest says: a bot post on the same wall, or a direct message to the author', async () => {
    const source = { postId: 12, wallId: 3, authorId: 8 };
    const asPost = contextWith({}, { reply: 'post', source });
    await asPost.ctx.reply('on the wall');
    expect(asPost.sent[0]?.entry).toEqual({ kind: 'post', tenant: 't', wallId: 3, body: 'on the wall', bot: 'probe', botUserId: 42 });
    const asDm = contextWith({}, { reply: 'dm', source });
    await asDm.ctx.reply('just for you');
    expect(asDm.sent[0]?.entry).toEqual({ kind: 'dm', tenant: 't', userId: 8, bot: 'probe', botUserId: 42, text: 'just for you' });
  });

  it('queues an activity-feed notification as given', async () => {
    const { ctx, sent } = contextWith({});
    await ctx.notify({ title: 'Heads up', body: 'Office closed Friday', groups: [4] } as never);
    expect(sent[0]?.entry).toEqual({ kind: 'notification', tenant: 't', notification: { title: 'Heads up', body: 'Office closed Friday', groups: [4] } });
  });

  it('fetches a media URL once and hands the bytes to the outbox to upload (the posts API takes uploads only)', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/charts/cpu%20load.png') res.end('PNGDATA');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onTestFinished(() => void server.close());
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { ctx, sent, stashed } = contextWith({ team: { wall: 3 } });
    await ctx.post('team', { text: 'load', media: [{ type: 'image', url: `${origin}/charts/cpu%20load.png` }] });
    expect(stashed.map(String)).toEqual(['PNGDATA']);
    expect(sent[0]?.entry).toMatchObject({ kind: 'post', media: [{ type: 'image', blobRef: 'blob1', filename: 'cpu load.png' }] });
    await expect(ctx.post('team', { text: 'x', media: [{ type: 'image', url: `${origin}/missing.png` }] })).rejects.toThrow(
      /media.url: .*missing.png answered 404/,
    );
    expect(sent).toHaveLength(1);
  });

  it('keeps a media URL file name with a malformed escape as written, instead of throwing URIError', async () => {
    const server = createServer((_req, res) => res.end('PDFDATA'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onTestFinished(() => void server.close());
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { ctx, sent } = contextWith({ team: { wall: 3 } });
    await ctx.post('team', { text: 'report', media: [{ type: 'document', url: `${origin}/reports/q3%E0%A4%A.pdf` }] });
    expect(sent[0]?.entry).toMatchObject({ kind: 'post', media: [{ type: 'document', filename: 'q3%E0%A4%A.pdf' }] });
  });

  it("reads now from the runtime's clock and today in the tenant's zone, past midnight there before UTC", () => {
    const lateOnNewYearsEve = Date.UTC(2026, 11, 31, 23, 30);
    const { ctx } = contextWith({}, { now: lateOnNewYearsEve });
    expect(ctx.now()).toBe(lateOnNewYearsEve);
    expect(ctx.today()).toBe('2027-01-01');
    expect(contextWith({}, { now: lateOnNewYearsEve, timezone: 'America/New_York' }).ctx.today()).toBe('2026-12-31');
  });

  it("dates an instant given as ms, ISO text or Date in the tenant's zone, and refuses what is not an instant", () => {
    const { ctx } = contextWith({}, { timezone: 'Europe/Berlin' });
    expect(ctx.dateOf(Date.UTC(2026, 5, 1, 22, 30))).toBe('2026-06-02');
    expect(ctx.dateOf('2026-06-01T22:30:00Z')).toBe('2026-06-02');
    expect(ctx.dateOf(new Date('2026-06-01T21:59:00Z'))).toBe('2026-06-01');
    expect(() => ctx.dateOf('next tuesday')).toThrow(/not an instant: next tuesday/);
  });
});

import { describe, expect, it } from 'vitest';
import { createBotContext, type EntrySink } from '../../src/bots/bot-context';
import { BotManifestSchema } from '../../src/bots/manifest';
import type { EnqueueOptions } from '../../src/outbox/outbox';
import type { OutboxEntryInput } from '../../src/outbox/entry';
import { createTemplateEngine } from '../../src/templates';

function contextWith(targets: Record<string, unknown>, incoming: Record<string, number> = {}) {
  const sent: { entry: OutboxEntryInput; options: EnqueueOptions | undefined }[] = [];
  const sink: EntrySink = {
    enqueue: async (entry, options) => {
      sent.push({ entry, options });
      return { id: `e${sent.length}` };
    },
    stashMedia: async () => 'blob',
  };
  const manifest = BotManifestSchema.parse({ name: 'probe', display_name: 'Probe', targets });
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const ctx = createBotContext({
    tenant: { id: 't', timezone: 'Europe/Berlin' },
    bot: { name: 'probe', manifest, userId: 42 },
    config: {},
    api: {} as never,
    sink,
    kv: {} as never,
    templates: createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'en-GB' }),
    log: silent,
    signal: new AbortController().signal,
    incoming,
    resolveWall: async () => 7,
  });
  return { ctx, sent };
}

describe('the handler context', () => {
  it("posts to a wall target as the bot user, resolving a wall given by name", async () => {
    const { ctx, sent } = contextWith({ team: { wall: 'Engineering' } });
    await ctx.post('team', 'Deploy finished');
    expect(sent[0]?.entry).toEqual({ kind: 'post', tenant: 't', wallId: 7, body: 'Deploy finished', botUserId: 42 });
  });

  it("passes a target's on_uncertain to the outbox, so a chat message can be at most once", async () => {
    const { ctx, sent } = contextWith({ room: { chat: 2, on_uncertain: 'drop' }, loud: { chat: 3 } }, { room: 11, loud: 12 });
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
});

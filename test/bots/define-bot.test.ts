import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { BotDefinitionError, defineBot, isBotDefinition, type BotEvent, type CommandInvocation } from '../../src/bots/define-bot';
import type { BotContext, SendReceipt } from '../../src/bots/context';
import { OutgoingMessageSchema } from '../../src/bots/context';
import type { PayloadOf } from '../../src/webhooks/payloads';
import { InvalidInputError } from '../../src/errors';

describe('defineBot types', () => {
  it('types the event payload by the event name and ctx.config by the config schema', () => {
    defineBot({
      config: z.object({ greeting: z.string(), wall: z.number() }),
      on: {
        'post.created': async (event, ctx) => {
          expectTypeOf(event).toEqualTypeOf<BotEvent<'post.created'>>();
          expectTypeOf(event.payload).toEqualTypeOf<PayloadOf<'post.created'>>();
          expectTypeOf(event.payload.wall_name).toEqualTypeOf<string>();
          expectTypeOf(ctx.config).toEqualTypeOf<{ greeting: string; wall: number }>();
          expectTypeOf(ctx).toEqualTypeOf<BotContext<{ greeting: string; wall: number }>>();
        },
        'achievement.awarded': (event) => {
          expectTypeOf(event.payload.achievement.visibility).toEqualTypeOf<'public' | 'personal'>();
        },
      },
      commands: {
        status: async (cmd, ctx) => {
          expectTypeOf(cmd).toEqualTypeOf<CommandInvocation>();
          expectTypeOf(cmd.flags).toEqualTypeOf<Record<string, string | boolean>>();
          return ctx.reply(ctx.config.greeting);
        },
        deploy: {
          description: 'Deploys',
          permissions: { managers: true },
          run: (_cmd, ctx) => {
            expectTypeOf(ctx.config.wall).toEqualTypeOf<number>();
          },
        },
      },
      jobs: {
        digest: async (ctx, run) => {
          expectTypeOf(run.slot).toEqualTypeOf<number>();
          expectTypeOf(ctx.post).returns.toEqualTypeOf<Promise<SendReceipt>>();
        },
      },
      reports: {
        'todoliststats.daily': (report) => {
          expectTypeOf(report.payload.data.departments[0]).toMatchTypeOf<{ name: string } | undefined>();
        },
      },
    });
  });

  it('gives a loose config without a schema', () => {
    defineBot({
      on: {
        test: (_event, ctx) => {
          expectTypeOf(ctx.config).toEqualTypeOf<Record<string, unknown>>();
        },
      },
    });
  });

  it('refuses handlers for unknown events and wrong payload reads at compile time', () => {
    // never called: the checks are the compiler's (`npm run typecheck`)
    const unknownEvent = () =>
      defineBot({
        on: {
          // @ts-expect-error post.deleted is not an event
          'post.deleted': () => undefined,
        },
      });
    expect(typeof unknownEvent).toBe('function');
    defineBot({
      on: {
        'comment.created': (event) => {
          // @ts-expect-error comments have no wall_name
          void event.payload.wall_name.length;
        },
      },
    });
  });
});

describe('defineBot at run time', () => {
  const noop = (): void => undefined;

  it('returns a frozen definition with commands in their long form', () => {
    const bot = defineBot({ commands: { status: noop, deploy: { description: 'Deploys', args: ['service', { name: 'env', required: false }], run: noop } } });
    expect(isBotDefinition(bot)).toBe(true);
    expect(Object.isFrozen(bot)).toBe(true);
    expect(bot.commands.status).toEqual({ name: 'status', description: undefined, args: [], permissions: undefined, run: noop });
    expect(bot.commands.deploy?.args).toEqual([
      { name: 'service', required: true },
      { name: 'env', required: false },
    ]);
  });

  it.each([
    ['on.post.deleted', { on: { 'post.deleted': noop } }],
    ['on.post.created', { on: { 'post.created': 'not a function' } }],
    ['config', { config: { greeting: 'x' } }],
    ['commands.Bad Name', { commands: { 'Bad Name': noop } }],
    ['jobs.digest', { jobs: { digest: 3 } }],
    ['handlers', { handlers: {} }],
  ])('refuses bad input, naming %s', (field, input) => {
    let caught: unknown;
    try {
      defineBot(input as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BotDefinitionError);
    expect(caught).toMatchObject({ code: 'invalid_manifest', field });
  });

  it("parses the manifest config with the bot's schema, naming a bad field", () => {
    const bot = defineBot({ config: z.object({ greeting: z.string(), retries: z.number().default(3) }) });
    expect(bot.parseConfig({ greeting: 'Hi' })).toEqual({ greeting: 'Hi', retries: 3 });
    expect(() => bot.parseConfig({ greeting: 5 })).toThrow(InvalidInputError);
    expect(() => bot.parseConfig({ greeting: 5 })).toThrow(/config\.greeting/);
  });

  it('passes the config through when there is no schema', () => {
    expect(defineBot({}).parseConfig({ a: 1 })).toEqual({ a: 1 });
    expect(defineBot({}).parseConfig(undefined)).toEqual({});
  });
});

describe('OutgoingMessageSchema', () => {
  it('accepts text, a template with data, and media', () => {
    expect(OutgoingMessageSchema.parse('hello')).toBe('hello');
    expect(
      OutgoingMessageSchema.parse({ template: 'alerts/firing', data: { n: 1 }, media: [{ url: 'https://x.example/a.png', type: 'image' }] }),
    ).toMatchObject({ template: 'alerts/firing' });
  });

  it('refuses empty text, both text and template, and more than 10 media items', () => {
    expect(OutgoingMessageSchema.safeParse('  ').success).toBe(false);
    expect(OutgoingMessageSchema.safeParse({ text: 'a', template: 'b' }).success).toBe(false);
    expect(OutgoingMessageSchema.safeParse({}).success).toBe(false);
    const media = Array.from({ length: 11 }, () => ({ url: 'https://x.example/a.png', type: 'image' }));
    expect(OutgoingMessageSchema.safeParse({ text: 'a', media }).success).toBe(false);
    expect(OutgoingMessageSchema.safeParse({ text: 'a', media: [{ type: 'image' }] }).success).toBe(false);
  });
});

describe('OutgoingMessageSchema errors', () => {
  it('names the field inside a structured message', () => {
    const result = OutgoingMessageSchema.safeParse({ text: 'a', media: [{ url: 'ftp://x.example/a', type: 'image' }] });
    expect(result.error?.issues[0]?.path).toEqual(['media', 0, 'url']);
    expect(OutgoingMessageSchema.safeParse(42).error?.issues[0]?.message).toMatch(/a message is text/);
  });
});

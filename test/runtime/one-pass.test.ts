// Each delivery is read once (issue #13): the receiver checks the envelope, the inbox item carries it and
// its event name, and the handler side parses neither again; the bot's config was parsed once at load.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPair, type Pair } from '../../src/testing';
import { EnvelopeSchema } from '../../src/webhooks/envelope';

const COUNTER = '__intrabotOnePassConfigParses';

/** A bot whose config schema counts its parses (in this process: the runtime loads the bot here). */
const MODULE = `import { defineBot, z } from '${resolve('src/index.ts')}';
const counted = z.object({ greeting: z.string() }).transform((config) => {
  (globalThis as Record<string, unknown>)['${COUNTER}'] = (((globalThis as Record<string, unknown>)['${COUNTER}'] as number) ?? 0) + 1;
  return config;
});
export default defineBot({
  config: counted,
  on: { 'post.created': async (event, ctx) => { if (event.payload.body.includes('count me')) await ctx.reply(ctx.config.greeting); } },
});
`;

describe('one pass per delivery', () => {
  let pair: Pair;
  let dir: string;
  const parses = (): number => ((globalThis as Record<string, unknown>)[COUNTER] as number | undefined) ?? 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-one-pass-'));
    await mkdir(join(dir, 'counter'));
    await writeFile(join(dir, 'counter', 'bot.yaml'), 'name: counter\ndisplay_name: Counter\nevents: [post.created]\nconfig: { greeting: counted }\n');
    await writeFile(join(dir, 'counter', 'index.ts'), MODULE);
    pair = await startPair({ botsDir: dir, bots: ['counter'] });
  });
  afterAll(async () => {
    await pair?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("checks each delivery's envelope once, at the receiver, and parses the bot's config only at load", async () => {
    const configParsesAtLoad = parses();
    expect(configParsesAtLoad).toBeGreaterThan(0);
    const checks = vi.spyOn(EnvelopeSchema, 'safeParse');
    const strictChecks = vi.spyOn(EnvelopeSchema, 'parse');
    try {
      const refs = await pair.refs();
      const posts = [];
      for (let i = 0; i < 3; i++) posts.push(await pair.platform.employeePost(refs.employee_ids[i]!, { wall_id: refs.company_wall_id, body: `count me ${i}` }));
      for (const post of posts)
        await pair.platform.waitFor(
          () => pair.platform.commentsOn(post.id),
          (c) => c.length > 0,
        );
      await pair.settle({ advanceClock: true });
      const delivered = (await pair.platform.deliveries()).filter((d) => d.ok === true && d.event === 'service.post.created').length;
      expect(delivered).toBeGreaterThanOrEqual(3);
      expect(checks.mock.calls.length + strictChecks.mock.calls.length).toBe(delivered);
      expect(parses()).toBe(configParsesAtLoad);
    } finally {
      checks.mockRestore();
      strictChecks.mockRestore();
    }
  });
});

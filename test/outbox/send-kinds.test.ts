// Every kind of send in the registry (src/outbox/kinds/send-kinds.ts), queued for real: what the CLI's
// `intrabot outbox` line, the console's outbox answer, a run's sends (the audit log's "post to wall 3")
// and testBot's record say of it comes from the kind's own file. The tests iterate the registry: a new
// kind is covered by adding it there, with its `sample`.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createBotContext } from '../../src/bots/create-bot-context';
import { BotManifestSchema } from '../../src/bots/manifest';
import { RUN_SENDS, RunOutbox } from '../../src/bots/run-sends';
import type { OutboxEntryInput } from '../../src/outbox/entry';
import { createTemplateEngine } from '../../src/templates';
import { runOutboxCommand } from '../../src/cli/commands/outbox';
import { AdjustableClock } from '../../src/clock';
import type { OutboxRow } from '../../src/console/console-views';
import { OUTBOX_KINDS } from '../../src/outbox/entry';
import { kindOf, SEND_KINDS, type SendSummary } from '../../src/outbox/kinds';
import { Outbox, parseEntry } from '../../src/outbox/outbox';
import type { ConsoleWiringParts } from '../../src/console/console-wiring-parts';
import { consoleDepsFrom } from '../../src/console/runtime-wiring';
import { openStore, sqliteStorePath, type Store } from '../../src/store';
import { RecordingSink } from '../../src/testing/test-bot/recording-sink';
import { captureIo } from '../cli/cli-io';
import { consoleApp } from '../console/fake-console';

const KINDS_DIR = fileURLToPath(new URL('../../src/outbox/kinds/', import.meta.url));
/** The files beside the kinds that are not kinds: the interface, the registry, what kinds share. */
const NOT_KINDS = new Set(['index.ts', 'send-kind.ts', 'send-kinds.ts', 'entry-fields.ts', 'sent-media.ts']);

const nameOf = (kind: (typeof SEND_KINDS)[number]): string => kind.schema.shape.kind.value;

/** The parts of a summary as a person reads them: the title (when it is text) and the text. */
function partsOf(summary: SendSummary): { title: string; text: string } {
  return { title: 'title' in summary && typeof summary.title === 'string' ? summary.title : '', text: summary.text };
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function freshStore(clock: AdjustableClock): Promise<{ dir: string; store: Store }> {
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-send-kinds-'));
  const store = await openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return { dir, store };
}

/** The console of a runtime over `store` alone: its real outbox answer (`consoleDepsFrom`), on a Fastify app. */
async function consoleOver(store: Store, clock: AdjustableClock): Promise<FastifyInstance> {
  const parts = {
    config: { mode: 'sandbox', tenants: [] },
    clock,
    store,
    table: { defaultTenant: () => undefined, all: () => [] },
  } as unknown as ConsoleWiringParts;
  const app = await consoleApp(consoleDepsFrom(parts));
  cleanups.push(() => app.close());
  return app;
}

describe('the registry of kinds of send', () => {
  it('lists every kind file under src/outbox/kinds/, once, and derives the kind names from them', async () => {
    const files = readdirSync(KINDS_DIR).filter((file) => file.endsWith('.ts') && !NOT_KINDS.has(file));
    const exported = await Promise.all(files.map(async (file) => Object.values((await import(join(KINDS_DIR, file))) as Record<string, unknown>)));
    const kindsInFiles = exported.flat().filter((value) => SEND_KINDS.includes(value as never));
    expect(kindsInFiles).toHaveLength(files.length);
    expect(new Set(kindsInFiles)).toEqual(new Set(SEND_KINDS));
    expect(OUTBOX_KINDS).toEqual(SEND_KINDS.map(nameOf));
    expect(new Set(OUTBOX_KINDS).size).toBe(OUTBOX_KINDS.length);
  });
});

describe.each(SEND_KINDS.map((kind) => [nameOf(kind), kind] as const))('the %s kind', (name, kind) => {
  it('has a sample the outbox takes as it is', () => {
    expect(kind.sample, `${name} needs a sample`).toBeDefined();
    const entry = parseEntry(kind.sample);
    expect(entry.kind).toBe(name);
    expect(kindOf(entry)).toBe(kind);
  });

  it("shows its summary and order key in `intrabot outbox` and the console, and its destination in a run's sends", async () => {
    const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
    const { dir, store } = await freshStore(clock);
    const outbox = new Outbox({ store, clock });
    const locals: Record<string, unknown> = {};
    const sink = new RunOutbox(outbox, { locals });
    const { id } = await sink.enqueue(kind.sample);

    // the kind's own word, through the lookup typed for an entry (the same object: see the sample's test)
    const queued = parseEntry(kind.sample);
    const own = kindOf(queued);
    const target = own.orderKey(queued);
    const summary = own.summary(queued);
    const { title, text } = partsOf(summary);
    expect(title || text, `${name}'s sample says nothing`).not.toBe('');

    // a run's sends, as the audit log lists them: `${kind} to ${destination}`
    expect(RUN_SENDS.get({ locals })).toEqual([{ kind: name, to: own.destination(queued), entryId: id }]);

    // the CLI's line: id, target, attempts, then `kind: ` and the title of a titled kind, else its text
    const io = captureIo({ INTRABOT_DATA_DIR: dir }, dir);
    expect(await runOutboxCommand(['list'], { ...io, clock })).toBe(0);
    expect(io.out).toContain(`${id}  ${target}  attempts 0  ${name}: ${'title' in summary ? title : text}\n`);

    // the console's answer: the same entry, its target, and "title: text" (or what of them there is)
    const app = await consoleOver(store, clock);
    const answer = await app.inject({ method: 'GET', url: '/console/api/outbox' });
    expect(answer.statusCode).toBe(200);
    const rows = (answer.json() as { rows: OutboxRow[] }).rows;
    expect(rows.map((row) => [row.id, row.kind, row.target])).toEqual([[id, name, target]]);
    expect(rows[0]?.summary).toBe(title && text ? `${title}: ${text}` : title || text);
  });

  it("is recorded by testBot as its kind's record says, or refused when the kind has none", async () => {
    const sink = new RecordingSink();
    const entry = parseEntry(kind.sample);
    if (kind.record === undefined) {
      await expect(sink.enqueue(kind.sample)).rejects.toThrow(`a ${name} entry, which testBot does not record`);
      return;
    }
    await sink.enqueue(kind.sample);
    expect(sink.sent).toEqual([kindOf(entry).record?.(entry)]);
  });

  it('is queued by its ctx method when it declares one (contextMethod): the sample, from its one field', async () => {
    const method = kind.contextMethod;
    if (method === undefined) return;
    const fields = Object.keys(kind.sample).filter((key) => key !== 'kind' && key !== 'tenant');
    expect(fields, `${name} has a ctx method of one argument: its sample has one field besides kind and tenant`).toHaveLength(1);
    const queued: OutboxEntryInput[] = [];
    const ctx = createBotContext({
      tenant: { id: kind.sample.tenant, timezone: 'Europe/Berlin' },
      clock: new AdjustableClock({ start: 0, frozen: true }),
      bot: { name: 'probe', manifest: BotManifestSchema.parse({ name: 'probe', display_name: 'Probe' }), userId: 9 },
      config: {},
      api: {} as never,
      sink: { enqueue: async (entry) => (queued.push(entry), { id: 'e1' }), stashMedia: async () => 'blob' },
      kv: {} as never,
      templates: createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'en-GB' }),
      log: { debug() {}, info() {}, warn() {}, error() {} },
      signal: new AbortController().signal,
      wallOf: async (wall) => ({ wallName: wall }),
    });
    const call = (ctx as unknown as Record<string, (input: unknown) => Promise<unknown>>)[method.name];
    expect(typeof call, `ctx.${method.name}`).toBe('function');
    await call!((kind.sample as Record<string, unknown>)[fields[0]!]);
    expect(queued).toEqual([kind.sample]);
  });
});

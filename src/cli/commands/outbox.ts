import { createSystemClock, type Clock } from '../../clock';
import { isIntrabotError } from '../../errors';
import { OutboxRecordSchema } from '../../outbox/entry';
import { entryHeadline } from '../../outbox/entry-text';
import { loadConfig, type RuntimeConfig } from '../../runtime/config/config';
import { missingRuntimeStore, openRuntimeStore } from '../../runtime/start/open-runtime-store';
import type { QueueEntry, Store } from '../../store';
import type { CliCommand } from '../command';
import { messageOf } from '../output';
import { tenantTimeZone, zonedTime } from '../time';
import { readFlags } from '../read-flags';

/** What `intrabot outbox` reads and writes; the CLI passes the process, tests their own. */
export interface OutboxCommandDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  clock?: Clock;
}

const USAGE = 'outbox [list|dead|retry <id>|drop <id>] [--target T] [--limit N] [--json]';

type Action = { kind: 'list' } | { kind: 'dead' } | { kind: 'retry'; id: string } | { kind: 'drop'; id: string };

interface OutboxArgs {
  action: Action;
  json: boolean;
  target: string | undefined;
  limit: number;
}

/** The arguments, or what is wrong with them (naming the flag or value). */
function readArgs(args: string[]): OutboxArgs | string {
  const parsed = readFlags(args, { json: { type: 'boolean', default: false }, target: { type: 'string' }, limit: { type: 'string', default: '100' } });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  const [verb = 'list', id, ...extra] = positionals;
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return '--limit: a whole number from 1 to 10000';
  if (extra.length > 0) return `unexpected argument "${extra[0]}"`;
  const common = { json: values.json ?? false, target: values.target, limit };
  if (verb === 'list' && id === undefined) return { action: { kind: 'list' }, ...common };
  if (verb === 'dead' && id === undefined) return { action: { kind: 'dead' }, ...common };
  if (verb === 'retry' && id !== undefined) return { action: { kind: 'retry', id }, ...common };
  if (verb === 'drop' && id !== undefined) return { action: { kind: 'drop', id }, ...common };
  if (verb === 'retry' || verb === 'drop') return `${verb} needs an entry id`;
  if (verb === 'list' || verb === 'dead') return `unexpected argument "${id}"`;
  return `unknown action "${verb}"`;
}

/** A line of text about what an entry sends, without secrets (entries hold none) and cut short. */
export function describeEntry(payload: unknown): string {
  const parsed = OutboxRecordSchema.safeParse(payload);
  if (!parsed.success) return '(not an outbox entry)';
  return `${parsed.data.entry.kind}: ${clip(entryHeadline(parsed.data.entry))}`;
}

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The tenant an entry sends for (its time zone is the one its times are shown in). */
function tenantOf(payload: unknown): string | undefined {
  const parsed = OutboxRecordSchema.safeParse(payload);
  return parsed.success ? parsed.data.entry.tenant : undefined;
}

function table(entries: QueueEntry[], dead: boolean, config: RuntimeConfig): string {
  if (entries.length === 0) return dead ? 'No dead letters.\n' : 'The outbox is empty.\n';
  const lines = entries.map((e) => {
    const next = zonedTime(e.notBefore, tenantTimeZone(config, tenantOf(e.payload)));
    const status = dead ? `dead: ${e.deadReason ?? ''}` : `${e.state}, next ${next}${e.lastError ? `, last error: ${e.lastError}` : ''}`;
    return `${e.id}  ${e.target}  attempts ${e.attempts}  ${describeEntry(e.payload)}\n    ${status}`;
  });
  return `${lines.join('\n')}\n`;
}

async function act(store: Store, args: OutboxArgs, deps: OutboxCommandDeps, config: RuntimeConfig): Promise<number> {
  const { action } = args;
  if (action.kind === 'list' || action.kind === 'dead') {
    const state = action.kind === 'dead' ? 'dead' : 'live';
    const entries = await store.outbox.list({ state, limit: args.limit, ...(args.target ? { target: args.target } : {}) });
    deps.stdout(args.json ? `${JSON.stringify(entries, null, 2)}\n` : table(entries, state === 'dead', config));
    return 0;
  }
  const done = action.kind === 'retry' ? await store.outbox.requeue(action.id) : await store.outbox.drop(action.id);
  const verb = action.kind === 'retry' ? 'requeued' : 'dropped';
  if (args.json) deps.stdout(`${JSON.stringify({ id: action.id, [verb]: done })}\n`);
  else if (done) deps.stdout(`${action.id} ${verb}\n`);
  if (!done)
    deps.stderr(`intrabot outbox: no ${action.kind === 'retry' ? 'dead or waiting' : 'dead or pending'} entry ${action.id} (or it is being sent right now)\n`);
  return done ? 0 : 1;
}

/** Runs `intrabot outbox ...`; resolves to the exit code. */
export async function runOutboxCommand(args: string[], deps: OutboxCommandDeps): Promise<number> {
  const parsed = readArgs(args);
  if (typeof parsed === 'string') {
    deps.stderr(`intrabot outbox: ${parsed}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  let store: Store | undefined;
  try {
    const config = loadConfig({ env: deps.env, cwd: deps.cwd });
    const missing = missingRuntimeStore(config);
    if (missing !== undefined) {
      // nothing ever ran here: say so instead of creating a store as a side effect of looking
      deps.stderr(`intrabot outbox: no store at ${missing} (has the runtime run with this INTRABOT_DATA_DIR?)\n`);
      return parsed.action.kind === 'list' || parsed.action.kind === 'dead' ? 0 : 1;
    }
    store = await openRuntimeStore(config, deps.clock ?? createSystemClock(), deps.env);
    return await act(store, parsed, deps, config);
  } catch (error) {
    deps.stderr(`intrabot outbox: ${isIntrabotError(error) || error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}

export const command: CliCommand = {
  name: 'outbox',
  usage: USAGE,
  summary: 'List queued and dead-lettered messages; retry or drop one',
  run: (args) =>
    runOutboxCommand(args, {
      env: process.env,
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    }),
};

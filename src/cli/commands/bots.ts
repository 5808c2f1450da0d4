import type { CliCommand } from '../command';
import { messageOf, paint, processIo, table, type CliIo } from '../output';
import { adminRefusal, answerMessage, createRuntimeClient, type RuntimeClient } from '../runtime-client';
import { readFlags } from '../read-flags';

const USAGE = 'bots paused [--json] | bots pause <bot> [--tenant t] [--reason text] | bots resume <bot> [--tenant t] [--discard]';

type BotsArgs =
  | { kind: 'paused'; json: boolean }
  | { kind: 'pause'; bot: string; tenant?: string; reason?: string }
  | { kind: 'resume'; bot: string; tenant?: string; discard: boolean };

interface PauseView {
  tenant: string;
  bot: string;
  reason: string | null;
  since: number;
}

/** The arguments, or what is wrong with them (naming the flag or value). */
function readArgs(args: string[]): BotsArgs | string {
  const parsed = readFlags(args, { tenant: { type: 'string' }, reason: { type: 'string' }, discard: { type: 'boolean' }, json: { type: 'boolean' } });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  const [verb, bot, ...extra] = positionals;
  if (extra.length > 0) return `unknown argument "${extra[0]}"`;
  const tenant = values.tenant === undefined ? {} : { tenant: values.tenant };
  if (verb === 'paused' || verb === undefined) {
    if (bot !== undefined) return `unknown argument "${bot}"`;
    if (values.tenant !== undefined || values.reason !== undefined || values.discard) return '--tenant, --reason and --discard go with pause or resume';
    return { kind: 'paused', json: values.json ?? false };
  }
  if (verb !== 'pause' && verb !== 'resume') return `unknown argument "${verb}" (pause, resume or paused)`;
  if (bot === undefined) return `${verb} needs the bot's name`;
  if (verb === 'pause') {
    if (values.discard) return '--discard goes with resume';
    return { kind: 'pause', bot, ...tenant, ...(values.reason === undefined ? {} : { reason: values.reason }) };
  }
  if (values.reason !== undefined) return '--reason goes with pause';
  return { kind: 'resume', bot, ...tenant, discard: values.discard ?? false };
}

/** `intrabot bots ...`: through the running runtime's admin routes (a pause lives in its store, seen by every replica). */
export async function runBots(args: string[], io: CliIo, client: RuntimeClient = createRuntimeClient({ env: io.env })): Promise<number> {
  const parsed = readArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`intrabot bots: ${parsed}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const c = paint(io);
  const query = 'tenant' in parsed && parsed.tenant !== undefined ? `?tenant=${encodeURIComponent(parsed.tenant)}` : '';
  const answer =
    parsed.kind === 'paused'
      ? await client.request<{ data?: PauseView[] }>('GET', '/_admin/bots/paused')
      : await client.request<Record<string, unknown>>('POST', `/_admin/bots/${encodeURIComponent(parsed.bot)}/${parsed.kind}${query}`, {
          body: JSON.stringify(
            parsed.kind === 'pause' ? (parsed.reason === undefined ? {} : { reason: parsed.reason }) : parsed.discard ? { discard: true } : {},
          ),
        });
  if (!answer.reachable) {
    io.stderr(`intrabot bots: no runtime is up at ${client.baseUrl}: a pause is kept by a running runtime; start it (intrabot start) and try again\n`);
    return 1;
  }
  if (answer.status !== 200) {
    io.stderr(`intrabot bots: ${adminRefusal(answer.status) ?? answerMessage(answer.body)}\n`);
    return 1;
  }
  if (parsed.kind === 'paused') {
    const paused = (answer.body as { data?: PauseView[] }).data ?? [];
    if (parsed.json) io.stdout(`${JSON.stringify(paused, null, 2)}\n`);
    else if (paused.length === 0) io.stdout('No bot is paused.\n');
    else
      io.stdout(
        table(
          ['TENANT', 'BOT', 'SINCE', 'REASON'],
          paused.map((p) => [p.tenant, p.bot, new Date(p.since).toISOString(), p.reason ?? '-']),
        ),
      );
    return 0;
  }
  const body = answer.body as { tenant: string; bot: string; already?: boolean; resumed?: boolean; released?: number; discarded?: number; messages?: number };
  const who = `${body.bot} (tenant ${body.tenant})`;
  if (parsed.kind === 'pause') {
    io.stdout(
      `${c.yellow('paused')} ${who}${body.already ? ' (it was paused already; reason updated)' : ''}: its deliveries are acknowledged and kept, its jobs and messages held until \`intrabot bots resume ${body.bot}\`\n`,
    );
    return 0;
  }
  if (!body.resumed) {
    io.stdout(`${who} was not paused: nothing to resume\n`);
    return 0;
  }
  const kept = parsed.discard ? `${body.discarded ?? 0} waiting deliveries dropped` : `${body.released ?? 0} held deliveries handed back in order`;
  io.stdout(`${c.green('resumed')} ${who}: ${kept}, ${body.messages ?? 0} held messages sent, missed job slots caught up per catch_up\n`);
  return 0;
}

export const command: CliCommand = {
  name: 'bots',
  usage: USAGE,
  summary: 'Pause a bot (its deliveries kept, its jobs and messages held) and resume it, on every replica; list paused bots',
  run: (args) => runBots(args, processIo()),
};

import type { BotContext } from 'intrabot';
import type { AcknowledgeConfig } from './acknowledge-config';
import { confirmedAt, getPage, getReminded, type Recipient, type Round } from './rounds';

/** One line of the report: an employee of the audience. */
export interface ReachRow {
  user: Recipient;
  confirmedAt: string | undefined;
  reminders: number;
}

export interface Reach {
  sent: number;
  confirmed: number;
  unconfirmed: number;
  reminded: number;
  reminders: number;
  percent: number;
  rows: ReachRow[];
}

/** The reach of a round, from its audience snapshot and what the store knows of each employee (no API call). */
export async function reachOf(ctx: BotContext<AcknowledgeConfig>, round: Round): Promise<Reach> {
  const seen = new Set<number>();
  const rows: ReachRow[] = [];
  for (let page = 0; page < round.audience.pages; page++) {
    for (const user of await getPage(ctx.store, round.id, page)) {
      // an employee in two of the announcement's groups is one recipient
      if (seen.has(user.id)) continue;
      seen.add(user.id);
      rows.push({ user, confirmedAt: await confirmedAt(ctx.store, round.id, user.id), reminders: (await getReminded(ctx.store, round.id, user.id)).count });
    }
  }
  const confirmed = rows.filter((r) => r.confirmedAt !== undefined).length;
  return {
    sent: rows.length,
    confirmed,
    unconfirmed: rows.length - confirmed,
    reminded: rows.filter((r) => r.reminders > 0).length,
    reminders: rows.reduce((sum, r) => sum + r.reminders, 0),
    percent: rows.length === 0 ? 0 : Math.round((confirmed / rows.length) * 100),
    rows,
  };
}

const csvField = (value: string | number): string => {
  const text = String(value);
  // RFC 4180 quoting; a leading =, +, - or @ is prefixed so a spreadsheet does not read a formula
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The report's CSV (RFC 4180, CRLF line ends): one line per employee of the audience. */
export function reachCsv(rows: readonly ReachRow[]): string {
  const lines = [['user_id', 'name', 'email', 'confirmed', 'confirmed_at', 'reminders']];
  for (const row of rows) {
    lines.push([String(row.user.id), row.user.name, row.user.email, row.confirmedAt ? 'yes' : 'no', row.confirmedAt ?? '', String(row.reminders)]);
  }
  return lines.map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * A direct message to `to` (default: the round's author) with the counts, and the CSV attached as a
 * document (ctx.dm carries media: docs/context.md, Messages).
 */
export async function sendReport(ctx: BotContext<AcknowledgeConfig>, round: Round, options: { final: boolean; to?: number }): Promise<Reach> {
  const reach = await reachOf(ctx, round);
  const { rows, ...counts } = reach;
  await ctx.dm(options.to ?? round.authorId, {
    template: ctx.config.templates.report,
    data: { ...counts, final: options.final, announcement: { id: round.id, title: round.title } },
    media: [{ data: new TextEncoder().encode(reachCsv(rows)), filename: `acknowledge-${round.id}.csv`, type: 'document' }],
  });
  return reach;
}

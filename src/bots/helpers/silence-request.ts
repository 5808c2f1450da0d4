import { z } from 'zod';

/** One matcher of an Alertmanager silence (API v2 `matchers[]`). */
export const SilenceMatcherSchema = z.object({
  name: z.string().min(1),
  value: z.string(),
  isRegex: z.boolean(),
  isEqual: z.boolean(),
});
export type SilenceMatcher = z.infer<typeof SilenceMatcherSchema>;

/** What `/silence <matchers> <duration> [comment]` asks for. */
export interface SilenceRequest {
  matchers: SilenceMatcher[];
  durationMs: number;
  /** Empty when the command gave none. */
  comment: string;
}

export type SilenceRequestResult = { ok: true; request: SilenceRequest } | { ok: false; problem: string };

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
/** Longer than any maintenance window: a silence meant to last this long is a route change, not a silence. */
const MAX_SILENCE_MS = 90 * UNIT_MS.d;
const DURATION = /^(?:\d+[smhdw])+$/;
// operators longest first, so `!=` is not read as `!` + `=`; a label name as Prometheus allows it
const MATCHER = /^([A-Za-z_][A-Za-z0-9_]*)(=~|!~|!=|=)(.*)$/;

/**
 * A duration such as `90s`, `30m`, `2h`, `1d`, `1w` or `1h30m` in ms; undefined when the text is not one.
 *
 * @example silenceDurationMs('1h30m') // => 5400000
 */
export function silenceDurationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhdw])/g)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return total;
}

/**
 * One matcher written as Alertmanager's tools write it: `name=value`, `name!=value`, `name=~regex` or
 * `name!~regex`, the value bare or in quotes (`instance=~"db-.*"`); undefined when the word is not one.
 *
 * @example parseSilenceMatcher('instance=~db-.*') // => { name: 'instance', value: 'db-.*', isRegex: true, isEqual: true }
 */
export function parseSilenceMatcher(word: string): SilenceMatcher | undefined {
  const match = MATCHER.exec(word);
  if (!match) return undefined;
  const [, name, operator, written] = match as unknown as [string, string, string, string];
  return { name, value: unquoted(written), isRegex: operator.endsWith('~'), isEqual: !operator.startsWith('!') };
}

/** A value in double or single quotes, without them (a `\"` inside a double-quoted one is a quote). */
function unquoted(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1);
  return text;
}

/**
 * Reads the arguments of `/silence`: one or more matchers, then a duration, then an optional comment
 * (the rest of the words). A problem is answered in words the person can act on.
 *
 * @example parseSilenceRequest(['alertname=DiskFull', 'instance=db-1', '2h', 'replacing', 'the', 'disk'])
 * // => { ok: true, request: { matchers: [...2], durationMs: 7200000, comment: 'replacing the disk' } }
 */
export function parseSilenceRequest(args: readonly string[]): SilenceRequestResult {
  const matchers: SilenceMatcher[] = [];
  let index = 0;
  for (; index < args.length; index++) {
    const matcher = parseSilenceMatcher(args[index]!);
    if (!matcher) break;
    matchers.push(matcher);
  }
  if (matchers.length === 0) return { ok: false, problem: 'name at least one matcher first, such as alertname=DiskFull or instance=~"db-.*"' };
  const durationText = args[index];
  if (durationText === undefined) return { ok: false, problem: 'say how long after the matchers, such as 2h or 1d' };
  const durationMs = silenceDurationMs(durationText);
  if (durationMs === undefined) return { ok: false, problem: `"${durationText}" is neither a matcher nor a duration (such as 30m, 2h, 1d)` };
  if (durationMs === 0) return { ok: false, problem: 'a silence must last longer than 0s' };
  if (durationMs > MAX_SILENCE_MS) return { ok: false, problem: 'a silence lasts at most 90d; change the route for longer' };
  if (matchers.every(matchesEmpty)) return { ok: false, problem: 'the matchers would silence every alert: at least one must need a value' };
  return { ok: true, request: { matchers, durationMs, comment: args.slice(index + 1).join(' ') } };
}

/** Whether a matcher matches an alert without the label (Alertmanager refuses a silence of only such). */
function matchesEmpty(matcher: SilenceMatcher): boolean {
  let matches: boolean;
  if (matcher.isRegex) {
    try {
      matches = new RegExp(`^(?:${matcher.value})$`).test('');
    } catch {
      return false;
    }
  } else matches = matcher.value === '';
  return matcher.isEqual ? matches : !matches;
}

/**
 * A matcher as people read it back: `alertname="DiskFull"`, `instance=~"db-.*"`.
 *
 * @example formatSilenceMatcher({ name: 'job', value: 'api', isRegex: false, isEqual: false }) // => 'job!="api"'
 */
export function formatSilenceMatcher(matcher: SilenceMatcher): string {
  const operator = `${matcher.isEqual ? '=' : '!'}${matcher.isRegex ? '~' : matcher.isEqual ? '' : '='}`;
  return `${matcher.name}${operator}${JSON.stringify(matcher.value)}`;
}

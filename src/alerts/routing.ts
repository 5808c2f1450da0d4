import { z } from 'zod';
import type { Alert } from './alert';
import { InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';

/** A label's wanted value: exact, any of a list, or a regular expression written `~pattern` (anchored). */
const MatchValueSchema = z.union([z.string(), z.array(z.string()).min(1)]);

export const RouteRuleSchema = z.object({
  match: z.record(z.string(), MatchValueSchema).default({}),
  targets: z.array(z.string().min(1)).min(1),
  /** Keep looking at later rules after this one matched. */
  continue: z.boolean().default(false),
  /** The team whose on-call person the messages of the alerts this rule matches name. */
  oncall: z.string().min(1).optional(),
});
export type RouteRule = z.infer<typeof RouteRuleSchema>;

export const RoutingSchema = z.object({
  routes: z.array(RouteRuleSchema).default([]),
  /** Where alerts go that no rule matched. */
  default: z.array(z.string().min(1)).default([]),
});
export type Routing = z.infer<typeof RoutingSchema>;
export type RoutingInput = z.input<typeof RoutingSchema>;

type Matcher = (value: string | undefined) => boolean;

interface CompiledRule {
  matchers: Array<[string, Matcher]>;
  targets: string[];
  continue: boolean;
  oncall?: string;
}

/** Validated rules with their regular expressions compiled, ready for `routeAlert`. */
export interface CompiledRouting {
  rules: CompiledRule[];
  default: string[];
}

/**
 * Validate and compile route rules. A bad rule (or a regex that does not compile) throws an
 * `InvalidInputError` naming it: `routes.0.match.severity`.
 *
 * @example
 * const routing = compileRouting({
 *   routes: [{ match: { severity: 'critical' }, targets: ['oncall-chat'] }],
 *   default: ['ops-wall'],
 * });
 */
export function compileRouting(input: RoutingInput): CompiledRouting {
  const routing = parseOrThrow(RoutingSchema, input, 'routing');
  const rules = routing.routes.map((rule, index) => ({
    matchers: Object.entries(rule.match).map(([name, wanted]): [string, Matcher] => [name, matcherOf(wanted, `routing.routes.${index}.match.${name}`)]),
    targets: rule.targets,
    continue: rule.continue,
    ...(rule.oncall === undefined ? {} : { oncall: rule.oncall }),
  }));
  return { rules, default: routing.default };
}

/**
 * The targets of one alert: rules in order, the first match wins unless it says `continue`;
 * the default targets when none matched. A rule matches on labels; `severity`, `status` and
 * `source` fall back to the alert's normalised fields when no label has that name.
 *
 * @example routeAlert(routing, alert) // ['oncall-chat']
 */
export function routeAlert(routing: CompiledRouting, alert: Alert): string[] {
  const targets: string[] = [];
  for (const rule of routing.rules) {
    if (!rule.matchers.every(([name, matches]) => matches(fieldOf(alert, name)))) continue;
    for (const target of rule.targets) if (!targets.includes(target)) targets.push(target);
    if (!rule.continue) return targets;
  }
  return targets.length > 0 ? targets : [...routing.default];
}

/**
 * The on-call team of one alert: that of the first rule it matches that names one (rules that
 * `continue` included), or undefined.
 *
 * @example onCallTeamOf(routing, alert) // 'payments'
 */
export function onCallTeamOf(routing: CompiledRouting, alert: Alert): string | undefined {
  for (const rule of routing.rules) {
    if (!rule.matchers.every(([name, matches]) => matches(fieldOf(alert, name)))) continue;
    if (rule.oncall !== undefined) return rule.oncall;
    if (!rule.continue) return undefined;
  }
  return undefined;
}

/** Alerts by target name, each alert in every target it routes to, in input order. */
export function routeAlerts(routing: CompiledRouting, alerts: readonly Alert[]): Map<string, Alert[]> {
  const byTarget = new Map<string, Alert[]>();
  for (const alert of alerts) {
    for (const target of routeAlert(routing, alert)) byTarget.set(target, [...(byTarget.get(target) ?? []), alert]);
  }
  return byTarget;
}

function fieldOf(alert: Alert, name: string): string | undefined {
  const label = alert.labels[name];
  if (label !== undefined) return label;
  if (name === 'severity' || name === 'status' || name === 'source') return alert[name];
  return undefined;
}

function matcherOf(wanted: string | string[], field: string): Matcher {
  const options = (Array.isArray(wanted) ? wanted : [wanted]).map((one) => optionMatcher(one, field));
  return (value) => value !== undefined && options.some((matches) => matches(value));
}

function optionMatcher(wanted: string, field: string): Matcher {
  if (!wanted.startsWith('~')) return (value) => value === wanted;
  let pattern: RegExp;
  try {
    // anchored like Alertmanager's =~ matchers: `~crit.*` does not match "subcritical"
    pattern = new RegExp(`^(?:${wanted.slice(1)})$`);
  } catch (error) {
    throw new InvalidInputError(field, `${field}: not a valid regular expression`, { cause: error });
  }
  return (value) => value !== undefined && pattern.test(value);
}

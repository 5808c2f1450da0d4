import { z } from 'zod';
import type { AlertGroup } from '../alert';
import { ALERT_FORMATS } from '../../bots/manifest';
import { InvalidInputError } from '../../errors';
import { parseAlertmanager } from './alertmanager';
import { parseGeneric } from './generic';
import type { GenericMappingInput } from './generic-mapping';
import { GENERIC_PRESETS } from './generic-presets';
import { parseGrafana } from './grafana';
import { parseSlack } from './slack';
import { parseSns } from './sns';
import { SOURCE_PRESETS } from './source-presets';

/** The formats of `bot.yaml` (`ALERT_FORMATS`); a source whose preset is a format of its own needs no `mapping`. */
export const AlertFormatSchema = z.enum(ALERT_FORMATS);
export type AlertFormat = z.infer<typeof AlertFormatSchema>;

export interface ParseOptions {
  /** For `generic`: a mapping, or the name of a preset (`datadog`, `sentry`, `uptime-kuma`, `healthchecks`, ...: `GENERIC_PRESETS`). */
  mapping?: GenericMappingInput | string;
}

/** Reads a parsed JSON body into alert groups; throws `InvalidInputError` naming the field. */
export type Adapter = (body: unknown, options: ParseOptions) => AlertGroup[];

/** A format that is a preset of `generic` under its own name. */
const presetFormat =
  (preset: keyof typeof SOURCE_PRESETS): Adapter =>
  (body) =>
    parseGeneric(body, SOURCE_PRESETS[preset]);

const ADAPTERS: Record<AlertFormat, Adapter> = {
  alertmanager: (body) => parseAlertmanager(body),
  grafana: (body) => parseGrafana(body),
  slack: (body) => parseSlack(body),
  generic: (body, options) => parseGeneric(body, resolveMapping(options.mapping)),
  'azure-monitor': presetFormat('azure-monitor'),
  'gcp-monitoring': presetFormat('gcp-monitoring'),
  'formatted-webhook': presetFormat('formatted-webhook'),
  github: presetFormat('github'),
  gitlab: presetFormat('gitlab'),
  jenkins: presetFormat('jenkins'),
  zabbix: presetFormat('zabbix'),
  sns: (body) => parseSns(body),
};

/**
 * The adapter of an input's `format`.
 *
 * @example adapterFor('alertmanager')(body, {}) // [{ source: 'alertmanager', alerts: [...] }]
 */
export function adapterFor(format: string): Adapter {
  const parsed = AlertFormatSchema.safeParse(format);
  if (!parsed.success) {
    throw new InvalidInputError('format', `format: unknown alert format "${format}" (expected one of ${AlertFormatSchema.options.join(', ')})`);
  }
  return ADAPTERS[parsed.data];
}

/**
 * Parse a monitoring tool's body (already JSON-decoded) in the given format.
 *
 * @example
 * parseAlerts('generic', body, { mapping: 'uptime-kuma' })[0].alerts[0].status // 'firing'
 */
export function parseAlerts(format: string, body: unknown, options: ParseOptions = {}): AlertGroup[] {
  return adapterFor(format)(body, options);
}

function resolveMapping(mapping: ParseOptions['mapping']): GenericMappingInput {
  if (mapping === undefined) throw new InvalidInputError('mapping', 'mapping: the generic format needs a mapping or a preset name');
  if (typeof mapping !== 'string') return mapping;
  if (Object.hasOwn(GENERIC_PRESETS, mapping)) return GENERIC_PRESETS[mapping as keyof typeof GENERIC_PRESETS];
  const names = Object.keys(GENERIC_PRESETS).join(', ');
  throw new InvalidInputError('mapping', `mapping: unknown preset "${mapping}" (expected one of ${names})`);
}

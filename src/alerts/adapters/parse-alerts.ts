import { z } from 'zod';
import type { AlertGroup } from '../alert';
import { InvalidInputError } from '../../errors';
import { parseAlertmanager } from './alertmanager';
import { parseGeneric } from './generic';
import type { GenericMappingInput } from './generic-mapping';
import { GENERIC_PRESETS } from './generic-presets';
import { parseGrafana } from './grafana';
import { parseSlack } from './slack';

export const AlertFormatSchema = z.enum(['alertmanager', 'grafana', 'slack', 'generic']);
export type AlertFormat = z.infer<typeof AlertFormatSchema>;

export interface ParseOptions {
  /** For `generic`: a mapping, or the name of a preset (`datadog`, `datadog-default`, `sentry`, `uptime-kuma`). */
  mapping?: GenericMappingInput | string;
}

/** Reads a parsed JSON body into alert groups; throws `InvalidInputError` naming the field. */
export type Adapter = (body: unknown, options: ParseOptions) => AlertGroup[];

const ADAPTERS: Record<AlertFormat, Adapter> = {
  alertmanager: (body) => parseAlertmanager(body),
  grafana: (body) => parseGrafana(body),
  slack: (body) => parseSlack(body),
  generic: (body, options) => parseGeneric(body, resolveMapping(options.mapping)),
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

import type { Alert, AlertGroup, AlertLink, AlertStatus } from '../alert';
import { InvalidInputError } from '../../errors';
import { stableFingerprint, titleKey } from '../fingerprint';
import { interpolate, templatePaths } from '../interpolate';
import { normalizeSeverity } from '../severity';
import { parseTimestamp } from '../timestamp';
import { parseOrThrow } from '../../validation';
import { labelsAt } from './generic-labels';
import { GenericMappingSchema, type GenericMapping, type GenericMappingInput } from './generic-mapping';
import { optional, orderLinks } from './prometheus-alert';

const RESOLVED_WORDS = ['resolved', 'recovered', 'ok', 'up', 'good', 'success', 'normal', 'closed', 'inactive', 'false'];

/**
 * Map any JSON body to one alert with a mapping of templates (see `GenericMappingSchema`).
 * Only `{{path}}` lookups happen: nothing in the body or the mapping is evaluated.
 *
 * @example
 * parseGeneric({ name: 'SSO', up: 0 }, { title: '{{name}}', status: { value: '{{up}}', resolved: ['1'] } })
 * // [{ source: 'generic', alerts: [{ title: 'SSO', status: 'firing', ... }], ... }]
 */
export function parseGeneric(body: unknown, mappingInput: GenericMappingInput): AlertGroup[] {
  const mapping = parseOrThrow(GenericMappingSchema, mappingInput, 'mapping');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInputError('body', 'body: a generic alert input takes a JSON object');
  }
  // a body the source sends about something that is not (yet) news: nothing to post
  if (mapping.only && !mapping.only.in.some((pattern) => matches(pattern, interpolate(mapping.only!.value, body).trim()))) return [];
  const alert = toAlert(body, mapping);
  return [
    {
      source: mapping.source,
      groupKey: alert.groupKey ?? alert.fingerprint,
      status: alert.status,
      alerts: [alert],
      commonLabels: alert.labels,
    },
  ];
}

function toAlert(body: object, mapping: GenericMapping): Alert {
  const render = (template: string | undefined): string | undefined => {
    if (template === undefined) return undefined;
    const text = interpolate(template, body).trim();
    return text === '' ? undefined : text;
  };
  const title = render(mapping.title) ?? missing('title', mapping.title);
  const status = statusOf(body, mapping);
  const severityRaw = render(mapping.severity);
  return {
    source: mapping.source,
    fingerprint: render(mapping.fingerprint) ?? stableFingerprint(mapping.source, titleKey(title)),
    status,
    severity: normalizeSeverity(severityRaw),
    ...optional('severityRaw', severityRaw),
    title,
    summary: render(mapping.summary) ?? '',
    ...optional('description', render(mapping.description)),
    labels: labelsOf(body, mapping),
    ...optional('startedAt', parseTimestamp(render(mapping.startedAt))),
    ...optional('endedAt', status === 'resolved' ? parseTimestamp(render(mapping.endedAt)) : undefined),
    links: linksOf(body, mapping),
    ...imagesOf(mapping, render),
    ...optional('groupKey', render(mapping.groupKey)),
  };
}

/** A required template that rendered empty: name the body field it reads. */
function missing(field: string, template: string): never {
  const path = templatePaths(template)[0];
  const where = path === undefined ? `mapping.${field}` : `body.${path}`;
  throw new InvalidInputError(where, `${where} is missing or empty (read by the mapping's ${field})`);
}

function statusOf(body: object, mapping: GenericMapping): AlertStatus {
  if (mapping.status === undefined) return 'firing';
  const spec = typeof mapping.status === 'string' ? { value: mapping.status, resolved: RESOLVED_WORDS } : mapping.status;
  const value = interpolate(spec.value, body).trim();
  return spec.resolved.some((pattern) => matches(pattern, value)) ? 'resolved' : 'firing';
}

/** `~pattern` is a regular expression (unanchored); anything else an exact, case-insensitive match. */
function matches(pattern: string, value: string): boolean {
  if (pattern.startsWith('~')) return new RegExp(pattern.slice(1), 'i').test(value);
  return pattern.toLowerCase() === value.toLowerCase();
}

function labelsOf(body: object, mapping: GenericMapping): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const path of mapping.labelsFrom ?? []) Object.assign(labels, labelsAt(body, path));
  for (const [name, template] of Object.entries(mapping.labels ?? {})) {
    const value = interpolate(template, body).trim();
    if (value !== '') labels[name] = value;
  }
  return labels;
}

function linksOf(body: object, mapping: GenericMapping): AlertLink[] {
  const links = (mapping.links ?? []).map((link) => ({
    title: interpolate(link.title, body).trim(),
    url: interpolate(link.url, body).trim(),
    kind: link.kind,
  }));
  return orderLinks(links.filter((link) => link.url !== '').map((link) => ({ ...link, title: link.title || link.url })));
}

function imagesOf(mapping: GenericMapping, render: (t: string | undefined) => string | undefined): { images?: string[] } {
  const images = (mapping.images ?? []).map(render).filter((url): url is string => url !== undefined);
  return images.length > 0 ? { images } : {};
}

// Go's zero time.Time, which Alertmanager and Grafana send for "no end yet".
const GO_ZERO_TIME = /^0001-01-01T00:00:00(?:\.0+)?Z$/;
const NAIVE_DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const NUMERIC = /^\d+(?:\.\d+)?$/;
// Below this an epoch number is in seconds, above it in milliseconds (1e11 s is the year 5138).
const MS_THRESHOLD = 1e11;

/**
 * Normalise a source's timestamp to ISO 8601 UTC, or `undefined` when it is unset or unreadable.
 * Accepts RFC 3339 strings, Go's zero time (= unset), epoch seconds or milliseconds (number or
 * numeric string, as Datadog sends them) and zone-less `YYYY-MM-DD HH:MM:SS`, read as UTC (Uptime
 * Kuma's `heartbeat.time`).
 *
 * @example parseTimestamp('0001-01-01T00:00:00Z') // undefined
 */
export function parseTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || GO_ZERO_TIME.test(text)) return undefined;
  if (NUMERIC.test(text)) return fromEpoch(Number(text));
  const iso = NAIVE_DATETIME.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function fromEpoch(value: number): string | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const ms = value < MS_THRESHOLD ? value * 1000 : value;
  return new Date(Math.round(ms)).toISOString();
}

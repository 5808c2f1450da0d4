import { createHash } from 'node:crypto';

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;
const SEPARATOR = 0xff;

/**
 * Prometheus' label-set fingerprint (FNV-1a 64 over sorted `name 0xff value 0xff`), as Alertmanager
 * sends it since v0.19. Older senders omit `fingerprint`; recomputing it keeps the id identical to
 * what a newer Alertmanager would have sent.
 *
 * @example labelsFingerprint({ job: 'foo', severity: 'warning' }) // '9266ef3da838ad95'
 */
export function labelsFingerprint(labels: Record<string, string>): string {
  let hash = FNV_OFFSET;
  const feed = (bytes: Iterable<number>): void => {
    for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  };
  for (const name of Object.keys(labels).sort()) {
    feed(Buffer.from(name, 'utf8'));
    feed([SEPARATOR]);
    feed(Buffer.from(labels[name] ?? '', 'utf8'));
    feed([SEPARATOR]);
  }
  return hash.toString(16).padStart(16, '0');
}

/** A 16-hex id from any parts (order matters), for sources that send no id of their own. */
export function stableFingerprint(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
}

// Words that tell the state rather than which alert it is: a title that reads "[FIRING:3] X" when
// firing and "[RESOLVED] X" once resolved must still name the same alert.
const STATUS_WORDS = /\b(?:firing|resolved|re-?triggered|triggered|recovered|recovery|problem|ok|down|up|warn|no data|renotify|alerting|pending)\b/gi;

/**
 * The part of a title that identifies an alert across its state changes: lower-cased, without
 * status words, counts, emoji and punctuation. Titles that differ only in `up`/`down` collide on
 * purpose; a source where that matters should send an explicit fingerprint.
 *
 * @example titleKey('[Triggered on {host:web-03}] Web tier CPU') // 'on host web 03 web tier cpu'
 */
export function titleKey(title: string): string {
  return title
    .replace(/\[(?:firing|resolved)(?::\d+)?\]/gi, ' ')
    .replace(STATUS_WORDS, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

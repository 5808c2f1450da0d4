import type { Alert } from './alert';

const ZERO_WIDTH_SPACE = '\u200b';

// C0 controls except tab and newline, DEL, C1 controls, and the bidi embeddings/overrides/isolates
// that can make text display in another order than it reads ("Trojan Source").
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// `@name` and `＠name` (full-width): a zero-width space after the sign keeps the text readable but
// no longer a mention. Already broken ones are left alone, so sanitising twice changes nothing.
const MENTION = /([@\uff20])(?=[^\s\u200b])/g;
// `<b>`, `</a>`, `<!here>`, `<@U123>`, `<#C1>`: markup or Slack-style control sequences.
const TAG_OPEN = /<(?=[A-Za-z/!?@#])/g;

/**
 * Make untrusted alert text safe for a plain-text post body: line endings become `\n`, control
 * characters go, every `@` (and `＠`) gets a zero-width space after it so `@here` or
 * `@web-oncall` cannot notify anyone, and `<` before a tag-like character gets one too so no
 * markup forms. Text is otherwise unchanged (a reader sees `@here`), and tabs and newlines stay.
 * Templates apply this to alert fields; text the template itself writes is not touched.
 *
 * @example sanitizeText('cc @db-oncall <!here>') // 'cc @\u200bdb-oncall <\u200b!here>'
 */
export function sanitizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(MENTION, `$1${ZERO_WIDTH_SPACE}`).replace(TAG_OPEN, `<${ZERO_WIDTH_SPACE}`);
}

/** A URL from an alert: control characters and whitespace removed, otherwise as given. */
export function sanitizeUrl(url: string): string {
  return url.replace(CONTROL, '').replace(/\s+/g, '');
}

/** Every text field of an alert sanitised (labels and annotations too), ready for a template. */
export function sanitizeAlert(alert: Alert): Alert {
  const map = (record: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [sanitizeText(key), sanitizeText(value)]));
  return {
    ...alert,
    title: sanitizeText(alert.title),
    summary: sanitizeText(alert.summary),
    ...(alert.description !== undefined && { description: sanitizeText(alert.description) }),
    ...(alert.value !== undefined && { value: sanitizeText(alert.value) }),
    ...(alert.severityRaw !== undefined && { severityRaw: sanitizeText(alert.severityRaw) }),
    labels: map(alert.labels),
    ...(alert.annotations !== undefined && { annotations: map(alert.annotations) }),
    links: alert.links.map((link) => ({ ...link, title: sanitizeText(link.title), url: sanitizeUrl(link.url) })),
    ...(alert.images !== undefined && { images: alert.images.map(sanitizeUrl) }),
  };
}

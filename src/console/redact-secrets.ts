/** Shorter values are not scrubbed: they would match ordinary words (and no generated secret is this short). */
export const MIN_SCRUBBED_LENGTH = 8;

/** What replaces a secret in an answer. */
export const REDACTED = '[redacted]';

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`: as written, as it reads
 * inside a JSON string, and URL-encoded (an incoming webhook's token sits in its URL). The console
 * runs every answer through this: its views are built to hold no secret, and this makes sure.
 *
 * @example redactSecrets('{"url":"https://h/incoming/tok-12345678"}', ['tok-12345678']) // '{"url":"https://h/incoming/[redacted]"}'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const form of secretForms(secrets)) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
  return out;
}

/** Each secret in the forms it can take in an answer, longest first (a secret inside another goes after it). */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SCRUBBED_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

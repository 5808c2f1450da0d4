import { getPath, valueToText } from './json-path';

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const QUOTED = /^(?:"([^"]*)"|'([^']*)')$/;

/**
 * Fill `{{path}}` placeholders from parsed JSON. Inside a placeholder, `||` gives alternatives,
 * the first non-empty one wins, and a quoted string is a literal:
 * `{{data.event.title || data.issue_alert.title || "Sentry issue"}}`. A path with no value reads
 * as empty text. Text outside placeholders is kept as written. Nothing is evaluated.
 *
 * @example interpolate('[{{monitor.name}}] {{msg}}', { monitor: { name: 'SSO' }, msg: 'down' }) // '[SSO] down'
 */
export function interpolate(template: string, root: unknown): string {
  return template.replace(PLACEHOLDER, (_match, inner: string) => resolveAlternatives(inner, root));
}

/** The paths a template reads, in order; used to name the field when a required value is missing. */
export function templatePaths(template: string): string[] {
  const paths: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    for (const option of (match[1] ?? '').split('||')) {
      const trimmed = option.trim();
      if (trimmed !== '' && !QUOTED.test(trimmed)) paths.push(trimmed);
    }
  }
  return paths;
}

function resolveAlternatives(inner: string, root: unknown): string {
  for (const option of inner.split('||')) {
    const trimmed = option.trim();
    const literal = QUOTED.exec(trimmed);
    const text = literal ? (literal[1] ?? literal[2] ?? '') : valueToText(getPath(root, trimmed));
    if (text !== '') return text;
  }
  return '';
}

import { parseDocument } from 'yaml';
import { maskEnvRefs } from './env-refs';

/** What deciding whether to load a bot at all needs from its `bot.yaml`. */
export interface ManifestHeading {
  name: string;
  example: boolean;
}

/**
 * A manifest's `name` and `example`, read without validating the rest or resolving its environment
 * references: an example bot that is not enabled is skipped before it is loaded, so the settings it
 * would need (an `${env:ALERT_TOKEN}` in connected mode) are never asked for. Undefined when the text
 * has no usable name (its loading then reports why).
 *
 * @example peekManifest('name: birthday\nexample: true\n') // => { name: 'birthday', example: true }
 */
export function peekManifest(source: string): ManifestHeading | undefined {
  const doc = parseDocument(maskEnvRefs(source).text);
  if (doc.errors.length > 0) return undefined;
  const value: unknown = doc.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { name, example } = value as { name?: unknown; example?: unknown };
  // a name from the environment is masked here: only loading tells it
  if (typeof name !== 'string' || name === '' || name.includes('__intrabot_env_')) return undefined;
  return { name, example: example === true };
}

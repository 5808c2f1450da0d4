/**
 * `${env:NAME}` and `${env:NAME:-default}` references in manifests, resolved once at load.
 *
 * References are swapped for inert placeholders in the YAML text before it is parsed and put back
 * into string values afterwards. That way `auth: { bearer: ${env:TOKEN} }` parses even inside a
 * flow mapping (whose `{` `}` would otherwise be YAML syntax), and a value taken from the
 * environment is never parsed as YAML itself: a secret containing `: ` or `#` stays one string.
 */

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const PLACEHOLDER = /__intrabot_env_(\d+)__/g;

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvRef {
  name: string;
  /** The text after `:-`, when given (may be empty: `${env:X:-}`). */
  fallback: string | undefined;
  /** 1-based line of the reference in the original text. */
  line: number;
}

export interface MaskedSource {
  text: string;
  refs: EnvRef[];
}

/** Thrown by `unmaskEnvRefs` for a reference with neither a value nor a default. */
export class MissingEnvRefError extends Error {
  constructor(readonly ref: EnvRef) {
    super(`environment variable ${ref.name} is not set and has no default (write \${env:${ref.name}:-default} to give one)`);
    this.name = 'MissingEnvRefError';
  }
}

/**
 * Thrown by `unmaskEnvRefs` for `${env:` that does not form a reference (`${env:TOKEN` with no `}`, or
 * a name that is not an environment variable's): refused rather than kept as literal text.
 */
export class MalformedEnvRefError extends Error {
  constructor(readonly text: string) {
    super(
      `${text.includes('}') ? 'malformed' : 'unclosed'} environment reference "${text}": write \${env:NAME} or \${env:NAME:-default} (NAME: letters, digits and _)`,
    );
    this.name = 'MalformedEnvRefError';
  }
}

/** Replaces every reference in `source` with a placeholder, keeping line numbers intact. */
export function maskEnvRefs(source: string): MaskedSource {
  const refs: EnvRef[] = [];
  const text = source.replace(ENV_REF, (_match, name: string, fallback: string | undefined, offset: number) => {
    refs.push({ name, fallback, line: lineAt(source, offset) });
    return `__intrabot_env_${refs.length - 1}__`;
  });
  return { text, refs };
}

/** Puts the environment's values where `maskEnvRefs` left placeholders in one string value. */
export function unmaskEnvRefs(value: string, refs: readonly EnvRef[], env: Env): string {
  // every well-formed reference is a placeholder by now: what is left was meant as one and is not
  const broken = value.indexOf('${env:');
  if (broken >= 0) throw new MalformedEnvRefError(value.slice(broken, broken + 40).split(/\s/)[0] ?? '${env:');
  return value.replace(PLACEHOLDER, (match, index: string) => {
    const ref = refs[Number(index)];
    if (!ref) return match;
    const given = env[ref.name];
    if (given !== undefined) return given;
    if (ref.fallback !== undefined) return ref.fallback;
    throw new MissingEnvRefError(ref);
  });
}

/**
 * Resolves references directly in one string (no YAML involved).
 *
 * @example resolveEnvRefs('Bearer ${env:TOKEN:-none}', {}) // => 'Bearer none'
 */
export function resolveEnvRefs(value: string, env: Env): string {
  const masked = maskEnvRefs(value);
  return unmaskEnvRefs(masked.text, masked.refs, env);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

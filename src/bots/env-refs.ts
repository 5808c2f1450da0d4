/**
 * `${env:NAME}` and `${env:NAME:-default}` references in manifests, resolved once at load.
 *
 * References are swapped for inert placeholders in the YAML text before it is parsed and put back
 * into string values afterwards. That way `auth: { bearer: ${env:TOKEN} }` parses even inside a
 * flow mapping (whose `{` `}` would otherwise be YAML syntax), and a value taken from the
 * environment is never parsed as YAML itself: a secret containing `: ` or `#` stays one string.
 */

import { readFileSync } from 'node:fs';

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
 * Thrown by `unmaskEnvRefs` when `NAME_FILE` (the file form of `NAME`, as Docker and Kubernetes secrets
 * give values) cannot be used: both forms set, or the file unreadable or empty. A kind of missing
 * reference, so every loader that names the field of a missing one names this one's too. The message
 * names the variable and the path, never the file's content.
 */
export class UnreadableEnvRefError extends MissingEnvRefError {
  constructor(ref: EnvRef, problem: string) {
    super(ref);
    this.message = problem;
    this.name = 'UnreadableEnvRefError';
  }
}

/** What is wrong with `NAME_FILE`; thrown by `readEnvFile`. */
export class EnvFileError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'EnvFileError';
  }
}

/**
 * The value of `name` given as a file: `NAME_FILE=/run/secrets/token` holds the path, the file the value
 * (one trailing newline, as `echo` and editors leave, is not part of it). Undefined when `NAME_FILE` is
 * unset; an `EnvFileError` when `NAME` is set too (which one would win is a guess), or the file cannot be
 * read or is empty.
 *
 * @example readEnvFile('INTRABOT_TOKEN', { INTRABOT_TOKEN_FILE: '/run/secrets/intrabot-token' }) // 'svc_…'
 */
export function readEnvFile(name: string, env: Env, read: (path: string) => string = (path) => readFileSync(path, 'utf8')): string | undefined {
  const variable = `${name}_FILE`;
  const path = env[variable];
  if (path === undefined || path === '') return undefined;
  if (env[name] !== undefined && env[name] !== '') {
    throw new EnvFileError(variable, `${name} and ${variable} are both set: keep one (${variable} names a file holding the value)`);
  }
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : 'unreadable';
    throw new EnvFileError(variable, `${variable}=${path}: cannot read the file (${code}); mount the secret there or fix the path`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value.trim() === '') throw new EnvFileError(variable, `${variable}=${path}: the file is empty`);
  return value;
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
    // the file form is read even when NAME is set too, so that both set is an error, not a guess
    const given = fromFile(ref, env) ?? env[ref.name];
    if (given !== undefined) return given;
    if (ref.fallback !== undefined) return ref.fallback;
    throw new MissingEnvRefError(ref);
  });
}

/** `${env:NAME}` with only `NAME_FILE` set reads the file (docs/configuration.md: Secrets from files). */
function fromFile(ref: EnvRef, env: Env): string | undefined {
  try {
    return readEnvFile(ref.name, env);
  } catch (error) {
    if (error instanceof EnvFileError) throw new UnreadableEnvRefError(ref, error.message);
    throw error;
  }
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

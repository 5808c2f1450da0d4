import { InvalidInputError } from '../errors';

/**
 * A path under the API root that would not stay there, or that a server could read as another path
 * than the one checked: refused, naming `path`.
 */
export class ApiPathError extends InvalidInputError {
  constructor(problem: string) {
    super('path', `path: ${problem}; only paths under /api/open/v1 are served`);
  }
}

/** A request path relative to the API root, cut into its path and its query string (with `?`). */
export interface SplitPath {
  pathname: string;
  search: string;
}

/**
 * `/walls?page=2#x` -> `{ pathname: '/walls', search: '?page=2' }`. The fragment is never sent: it
 * ends the URL wherever it starts, as the URL parser reads it.
 */
export function splitPath(path: string): SplitPath {
  const hash = path.indexOf('#');
  const bare = hash === -1 ? path : path.slice(0, hash);
  const cut = bare.indexOf('?');
  return cut === -1 ? { pathname: bare, search: '' } : { pathname: bare.slice(0, cut), search: bare.slice(cut) };
}

/**
 * Decoding rounds after which a path that still decodes further is refused: no client encodes a path
 * that many times, and the bound keeps the check linear.
 */
const MAX_DECODING_ROUNDS = 6;

/**
 * Why `pathname` (relative to the API root, no query) could reach anything but the API, or
 * `undefined` when it cannot.
 *
 * The URL parser reads `\` as `/`, drops tabs and newlines, and resolves `.` and `..` segments, also
 * percent-encoded (`%2e%2e`); the platform, or a server in front of it, may decode once more
 * (`%252e` -> `%2e` -> `.`), split on an encoded slash, normalise Unicode (`．．` -> `..`) or cut a
 * segment at `;` (`..;`). So the path is decoded until nothing changes, and the result (and its NFKC
 * form) may hold no backslash, no control character, no dot segment and no slash that was encoded:
 * then every reader sees the same segments the proxy checked its scopes against.
 *
 * @example apiPathProblem('/walls/3/posts') // undefined
 * @example apiPathProblem('/walls/..%5c..%5c_sandbox') // 'a backslash (as written or percent-encoded) is not allowed'
 */
export function apiPathProblem(pathname: string): string | undefined {
  const decoded = fullyDecoded(pathname, (text) => text);
  // NFKC may make a `%` (from `％`) that decodes further: folded and decoded until both settle
  const folded = fullyDecoded(pathname, (text) => text.normalize('NFKC'));
  if (decoded === undefined || folded === undefined) return `it is percent-encoded more than ${MAX_DECODING_ROUNDS} times`;
  const slashes = count(pathname, '/');
  for (const form of [decoded, folded]) {
    if (form.includes('\\')) return 'a backslash (as written or percent-encoded) is not allowed';
    if (hasControlCharacter(form)) return 'control characters (as written or percent-encoded) are not allowed';
    if (form.split('/').some(isDotSegment)) return '"." and ".." segments (as written or percent-encoded) are not allowed';
    if (count(form, '/') !== slashes) return 'an encoded slash (%2F) is not allowed';
  }
  return undefined;
}

/** Throws `ApiPathError` for a path `apiPathProblem` refuses. */
export function checkApiPath(pathname: string): void {
  const problem = apiPathProblem(pathname);
  if (problem !== undefined) throw new ApiPathError(problem);
}

/** `.`, `..`, and the same before a `;` (`..;jsessionid`), which some servers strip. */
function isDotSegment(segment: string): boolean {
  const head = segment.split(';', 1)[0];
  return head === '.' || head === '..';
}

/**
 * Percent-decodes (then applies `fold`) until the text stops changing. Runs of `%XX` decode as UTF-8
 * (invalid bytes become U+FFFD, so an overlong `%c0%ae` never becomes a dot); a `%` not followed by
 * two hex digits stays. `undefined` when it still changes after the last round.
 */
function fullyDecoded(text: string, fold: (text: string) => string): string | undefined {
  let current = fold(text);
  for (let round = 0; round <= MAX_DECODING_ROUNDS; round++) {
    const next = fold(current.replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8')));
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

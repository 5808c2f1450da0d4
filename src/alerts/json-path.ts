/**
 * Read a dotted path (`data.event.title`, `alerts.0.labels.severity`) from parsed JSON. Only own
 * properties are followed, so `__proto__` or `constructor` read nothing; no code is evaluated.
 * The empty path is the root.
 *
 * @example getPath({ a: [{ b: 1 }] }, 'a.0.b') // 1
 */
export function getPath(root: unknown, path: string): unknown {
  if (path === '') return root;
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** How a JSON value reads in text: strings as they are, scalars printed, objects as JSON. */
export function valueToText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

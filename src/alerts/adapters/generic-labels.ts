import { getPath, valueToText } from '../json-path';

/**
 * Labels read from one place in a body, whatever shape the sender uses for tags: an object of
 * scalars, `[[name, value]]` pairs, `[{name|key, value}]` objects or a `name:value,...` string.
 * Bare tags without a value (`prod`) become `prod: ""` and are dropped as empty.
 */
export function labelsAt(root: unknown, path: string): Record<string, string> {
  const value = getPath(root, path);
  const pairs = Array.isArray(value) ? value.map(pairOf) : typeof value === 'string' ? tagPairs(value) : objectPairs(value);
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    if (pair && pair[0] !== '' && pair[1] !== '') labels[pair[0]] = pair[1];
  }
  return labels;
}

type Pair = [string, string] | undefined;

function pairOf(item: unknown): Pair {
  if (Array.isArray(item) && item.length === 2) return [valueToText(item[0]), valueToText(item[1])];
  if (item !== null && typeof item === 'object') {
    const record = item as Record<string, unknown>;
    const name = record.name ?? record.key;
    if (typeof name === 'string') return [name, valueToText(record.value)];
  }
  if (typeof item === 'string') return tagPairs(item)[0];
  return undefined;
}

function objectPairs(value: unknown): Pair[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => [k, valueToText(v)]);
}

function tagPairs(text: string): Pair[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
    .map((tag) => {
      const colon = tag.indexOf(':');
      return colon === -1 ? [tag, ''] : [tag.slice(0, colon), tag.slice(colon + 1)];
    });
}

import { editDistance } from '../../did-you-mean';

/**
 * The known command closest to a mistyped one, or `null` when none is close: within one edit per
 * three letters (a swap of neighbours counts as one), or the only command starting with it.
 *
 * @example suggest('stauts', ['status', 'deploy']) // => 'status'
 */
export function suggest(name: string, known: readonly string[]): string | null {
  const wanted = name.toLowerCase();
  if (!wanted) return null;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (best && best.distance <= Math.max(1, Math.floor(wanted.length / 3))) return best.name;
  const prefixed = wanted.length >= 2 ? known.filter((candidate) => candidate.toLowerCase().startsWith(wanted)) : [];
  return prefixed.length === 1 ? (prefixed[0] ?? null) : null;
}

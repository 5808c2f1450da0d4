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

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

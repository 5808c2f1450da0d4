/**
 * "Did you mean ...?" for a name that is not one of the known ones: the closest known name by edit
 * distance (insertions, deletions, substitutions and swaps of two neighbours each count one), when it
 * is close enough to be a typo rather than a different word.
 */

/**
 * The number of single-character edits (insert, delete, substitute, swap two neighbours) that turn
 * `a` into `b` (optimal string alignment distance).
 *
 * @example editDistance('replly_to_bots', 'reply_to_bots') // => 1
 */
export function editDistance(a: string, b: string): number {
  // rows i-2, i-1 and i of the (a.length + 1) x (b.length + 1) table
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `given`, if it is within a third of the longer name's length (at least
 * two edits): close enough to be a typo. Ties go to the first in `known`.
 *
 * @example closestName('replly_to_bots', ['reply', 'react_to_bots']) // => 'react_to_bots'
 */
export function closestName(given: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    const allowed = Math.max(2, Math.floor(Math.max(given.length, name.length) / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/**
 * ` (did you mean "x"?)` for a close known name, else an empty string: appended to an error message.
 *
 * @example `unknown job "digets"${didYouMean('digets', ['digest'])}` // => 'unknown job "digets" (did you mean "digest"?)'
 */
export function didYouMean(given: string, known: Iterable<string>): string {
  const name = closestName(given, known);
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}

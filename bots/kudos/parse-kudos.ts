/** What `/kudos` was asked: whom (with an optional department or email to tell namesakes apart) and why. */
export interface KudosRequest {
  name: string;
  /** `Ada Lovelace (Sales)`: a department name or an email that narrows the match. */
  qualifier: string | undefined;
  reason: string;
}

const QUOTED = /^(["“”'‘’])(.+?)["“”'‘’](.*)$/s;
const QUALIFIED = /^(.*?)\s*\(([^()]+)\)\s*$/;

/**
 * Reads the text after `/kudos`: `Full Name for reason`, where the first word "for" separates the
 * two, or `"Full Name" reason` / `"Full Name" for reason` when the name is quoted (a name that itself
 * contains "for"). A department or email in parentheses after the name picks one of several
 * namesakes: `Ada Lovelace (Sales) for ...`. Returns undefined when either part is missing.
 *
 * @example parseKudos('Ada Lovelace for shipping the release')
 * // => { name: 'Ada Lovelace', qualifier: undefined, reason: 'shipping the release' }
 */
export function parseKudos(text: string): KudosRequest | undefined {
  const trimmed = text.trim();
  const quoted = QUOTED.exec(trimmed);
  let who: string;
  let reason: string;
  if (quoted) {
    who = quoted[2]!.trim();
    reason = quoted[3]!.trim().replace(/^for\s+/i, '');
  } else {
    const split = /\s+for\s+/i.exec(trimmed);
    if (!split) return undefined;
    who = trimmed.slice(0, split.index).trim();
    reason = trimmed.slice(split.index + split[0].length).trim();
  }
  const qualified = QUALIFIED.exec(who);
  const name = (qualified ? qualified[1]! : who).replace(/\s+/g, ' ').trim();
  const qualifier = qualified ? qualified[2]!.trim() : undefined;
  if (!name || !reason) return undefined;
  return { name, qualifier, reason };
}

/**
 * A name as compared: lower case, accents and extra spaces removed, so "José  Núñez" finds "Jose Nunez".
 *
 * @example normalizeName('  Zoë  WEBER ') // => 'zoe weber'
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

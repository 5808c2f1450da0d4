const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * How deeply a delivery may nest arrays and objects. Real envelopes nest about a dozen levels (a report's
 * departments, lists and tasks); a body nested thousands deep parses fine but overflows the stack of
 * every recursive reader after it (validation, serialising), so it is refused at the door.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests arrays and objects deeper than `max`, counted on its bytes in one pass
 * (no recursion, before anything parses it). Brackets inside strings do not count; UTF-8 continuation
 * bytes never equal an ASCII bracket or quote, so the bytes can be scanned as they are.
 *
 * @example
 * exceedsJsonDepth(Buffer.from('{"a":[[1]]}'), 2); // true: three levels
 */
export function exceedsJsonDepth(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

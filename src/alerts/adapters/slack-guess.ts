import type { AlertStatus, Severity } from '../alert';
import { normalizeSeverity } from '../severity';

const SEVERITY_RANK: Severity[] = ['critical', 'error', 'warning', 'info', 'none'];

// Whichever kind of word comes first decides: "[RESOLVED] Problem on db-02" is resolved.
const STATUS_WORD =
  /\b(resolved|recovered|recovery|back up|is up|up again|ok|firing|problem|triggered|down|alerting|alert|failed|failing|outage)\b|(✅|🟢|✔️)|(🔴|🚨|❌|:rotating_light:|:red_circle:)/i;
const RESOLVED = /^(resolved|recovered|recovery|back up|is up|up again|ok)$/i;

/** Status from the words of a text: the first status word decides; `undefined` when none. */
export function statusFromWords(text: string): AlertStatus | undefined {
  const match = STATUS_WORD.exec(text);
  if (!match) return undefined;
  if (match[2]) return 'resolved';
  if (match[3]) return 'firing';
  const word = match[1] ?? '';
  // a lower-case "ok" is too common in prose to mean a state
  if (word === 'ok') return undefined;
  return RESOLVED.test(word) ? 'resolved' : 'firing';
}

/**
 * What an attachment's colour bar says: `good`/green is resolved, `danger`/red and
 * `warning`/amber are firing, with the severity they usually carry.
 */
export function colorMeaning(color: string): { status: AlertStatus; severity: Severity } | undefined {
  const named = color.trim().toLowerCase();
  if (named === 'good') return { status: 'resolved', severity: 'none' };
  if (named === 'danger') return { status: 'firing', severity: 'error' };
  if (named === 'warning') return { status: 'firing', severity: 'warning' };
  const hue = hexHue(named);
  if (hue === undefined) return undefined;
  if (hue < 20 || hue >= 330) return { status: 'firing', severity: 'error' };
  if (hue < 70) return { status: 'firing', severity: 'warning' };
  if (hue < 170) return { status: 'resolved', severity: 'none' };
  return undefined;
}

function hexHue(color: string): number | undefined {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/.exec(color);
  if (!match?.[1]) return undefined;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  // a grey bar says nothing
  if (delta < 0.1) return undefined;
  const sector = max === r ? ((g - b) / delta + 6) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return sector * 60;
}

const SEVERITY_LINE = /\b(?:severity|priority)\b[\s*_`]*[:=][\s*_`]*([A-Za-z][\w-]*)/gi;

/** The most severe `Severity: X` (or `priority=X`) written in a text, with the word as written. */
export function severityFromText(text: string): { severity: Severity; raw: string } | undefined {
  const found = [...text.matchAll(SEVERITY_LINE)].map((match) => match[1] ?? '');
  return mostSevere(found);
}

/** Of several severity words, the most severe one that means something. */
export function mostSevere(words: readonly string[]): { severity: Severity; raw: string } | undefined {
  let best: { severity: Severity; raw: string } | undefined;
  for (const raw of words) {
    const severity = normalizeSeverity(raw);
    if (severity === 'none') continue;
    if (!best || SEVERITY_RANK.indexOf(severity) < SEVERITY_RANK.indexOf(best.severity)) best = { severity, raw };
  }
  return best;
}

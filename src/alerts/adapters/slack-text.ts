import type { AlertLink } from '../alert';

export interface PlainText {
  text: string;
  /** Links found in `<url|label>` sequences, in order. */
  links: AlertLink[];
}

const CONTROL_SEQUENCE = /<([^<>\n]+)>/g;

/**
 * Slack mrkdwn to plain text: `<url|label>` becomes `label (url)` (and a link), `<!here>`,
 * `<@U1|name>` and `<!subteam^S1|@team>` become the words they display, `<!date^…|fallback>` its
 * fallback, entities are decoded and emphasis markers dropped. The words keep their `@`: breaking
 * mentions is the renderer's job (see `sanitize.ts`), which treats every alert text alike.
 *
 * @example slackToPlain('*Down*: <https://x.example|x>').text // 'Down: x (https://x.example)'
 */
export function slackToPlain(mrkdwn: string): PlainText {
  const links: AlertLink[] = [];
  const replaced = mrkdwn.replace(CONTROL_SEQUENCE, (_match, inner: string) => controlSequence(inner, links));
  return { text: decodeEntities(stripEmphasis(replaced)), links };
}

function controlSequence(inner: string, links: AlertLink[]): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('!')) return specialMention(target.slice(1), label);
  if (target.startsWith('@')) return label ? `@${label.replace(/^@/, '')}` : target;
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  const url = decodeEntities(target).trim();
  const title = label === undefined ? undefined : decodeEntities(label);
  if (url === '') return title ?? '';
  links.push({ title: title ?? url, url, kind: 'link' });
  if (title === undefined || title === url || url.replace(/^[a-z]+:\/\//i, '') === title) return url;
  return `${title} (${url})`;
}

function specialMention(command: string, label: string | undefined): string {
  if (command.startsWith('date^')) return label ?? '';
  if (command.startsWith('subteam^')) return label ?? '@team';
  return label ? `@${label.replace(/^@/, '')}` : `@${command}`;
}

// Markers only count when they wrap text at word edges, so `5 * 3` or snake_case stay intact.
const EMPHASIS = [
  /(^|[\s(>])\*(?=\S)([^*\n]*?\S)\*(?=$|[\s).,:;!?<])/gm,
  /(^|[\s(>])_(?=\S)([^_\n]*?\S)_(?=$|[\s).,:;!?<])/gm,
  /(^|[\s(>])~(?=\S)([^~\n]*?\S)~(?=$|[\s).,:;!?<])/gm,
  /(^|[^`])`([^`\n]+)`(?!`)/gm,
];

function stripEmphasis(text: string): string {
  let result = text.replace(/```\n?/g, '');
  for (const pattern of EMPHASIS) result = result.replace(pattern, '$1$2');
  return result;
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

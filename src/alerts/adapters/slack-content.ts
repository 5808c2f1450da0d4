import type { AlertLink } from '../alert';
import { guessLinkKind } from './link-kind';
import { slackToPlain } from './slack-text';

/** Everything readable in a Slack-style body, gathered in display order. */
export interface SlackContent {
  headers: string[];
  titles: string[];
  lines: string[];
  fields: Array<{ name: string; value: string }>;
  links: AlertLink[];
  images: string[];
  colors: string[];
}

export function emptyContent(): SlackContent {
  return { headers: [], titles: [], lines: [], fields: [], links: [], images: [], colors: [] };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A text object (`{type, text}`) or a plain string, as plain text. */
function textOf(value: unknown, into: SlackContent): string | undefined {
  const raw = isObject(value) ? str(value.text) : str(value);
  if (raw === undefined) return undefined;
  const plain = slackToPlain(raw);
  into.links.push(...plain.links);
  return plain.text;
}

export function addText(mrkdwn: unknown, into: SlackContent): void {
  const text = textOf(mrkdwn, into);
  if (text !== undefined) into.lines.push(text);
}

/** Block Kit: header, section (text, fields, accessory), context, image, actions, rich_text. */
export function addBlocks(blocks: unknown, into: SlackContent): void {
  if (!Array.isArray(blocks)) return;
  for (const block of blocks) {
    if (!isObject(block)) continue;
    addBlock(block, into);
  }
}

function addBlock(block: Json, into: SlackContent): void {
  switch (block.type) {
    case 'header': {
      const text = textOf(block.text, into);
      if (text !== undefined) into.headers.push(text);
      return;
    }
    case 'section':
      addText(block.text, into);
      for (const field of Array.isArray(block.fields) ? block.fields : []) addBlockField(field, into);
      addImage(block.accessory, into);
      addButton(block.accessory, into);
      return;
    case 'context':
      for (const element of Array.isArray(block.elements) ? block.elements : []) {
        if (isObject(element) && element.type !== 'image') addText(element, into);
      }
      return;
    case 'image':
      addImage(block, into);
      return;
    case 'actions':
      for (const element of Array.isArray(block.elements) ? block.elements : []) addButton(element, into);
      return;
    case 'rich_text': {
      const text = richText(block.elements);
      if (text.trim() !== '') into.lines.push(text);
      return;
    }
    default:
      return;
  }
}

/** A section field reads `*Name*\nValue`: the first line names it. */
function addBlockField(field: unknown, into: SlackContent): void {
  const text = textOf(field, into);
  if (text === undefined) return;
  const newline = text.indexOf('\n');
  if (newline === -1) {
    into.lines.push(text);
    return;
  }
  into.fields.push({ name: text.slice(0, newline).trim(), value: text.slice(newline + 1).trim() });
}

function addImage(element: unknown, into: SlackContent): void {
  if (isObject(element) && element.type === 'image') {
    const url = str(element.image_url);
    if (url !== undefined) into.images.push(url);
  }
}

function addButton(element: unknown, into: SlackContent): void {
  if (!isObject(element) || element.type !== 'button') return;
  const url = str(element.url);
  if (url === undefined) return;
  const title = (textOf(element.text, emptyContent()) ?? url).replace(/\s*:[a-z0-9_+-]+:\s*/g, ' ').trim();
  into.links.push({ title, url, kind: guessLinkKind(title, 'action') });
}

/** Legacy attachments: colour bar, pretext, title(+link), text, fields, buttons, nested blocks. */
export function addAttachments(attachments: unknown, into: SlackContent): void {
  if (!Array.isArray(attachments)) return;
  for (const attachment of attachments) {
    if (!isObject(attachment)) continue;
    const color = str(attachment.color);
    if (color !== undefined) into.colors.push(color);
    addText(attachment.pretext, into);
    addTitle(attachment, into);
    const before = into.lines.length + into.fields.length;
    addText(attachment.text, into);
    addAttachmentFields(attachment.fields, into);
    addBlocks(attachment.blocks, into);
    for (const action of Array.isArray(attachment.actions) ? attachment.actions : []) addButton({ type: 'button', ...action }, into);
    const imageUrl = str(attachment.image_url);
    if (imageUrl !== undefined) into.images.push(imageUrl);
    // the fallback is only the content when the attachment had nothing else to show
    if (into.lines.length + into.fields.length === before && !str(attachment.title)) addText(attachment.fallback, into);
  }
}

function addTitle(attachment: Json, into: SlackContent): void {
  const title = textOf(attachment.title, into);
  if (title === undefined) return;
  into.titles.push(title);
  const link = str(attachment.title_link);
  if (link !== undefined) into.links.push({ title, url: link, kind: guessLinkKind(title, 'source') });
}

function addAttachmentFields(fields: unknown, into: SlackContent): void {
  for (const field of Array.isArray(fields) ? fields : []) {
    if (!isObject(field)) continue;
    const name = textOf(field.title, into);
    const value = textOf(field.value, into);
    if (name !== undefined && value !== undefined) into.fields.push({ name, value });
    else if (value !== undefined) into.lines.push(value);
  }
}

function richText(elements: unknown): string {
  if (!Array.isArray(elements)) return '';
  return elements
    .map((element) => {
      if (!isObject(element)) return '';
      if (typeof element.text === 'string') return element.text;
      if (typeof element.url === 'string') return element.url;
      if (element.type === 'user') return `@${valueOr(element.user_id)}`;
      if (element.type === 'usergroup') return `@${valueOr(element.usergroup_id)}`;
      return richText(element.elements);
    })
    .join('');
}

function valueOr(value: unknown): string {
  return typeof value === 'string' ? value : 'someone';
}

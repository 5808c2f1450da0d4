import { z } from 'zod';
import type { Alert, AlertGroup, AlertStatus, Severity } from '../alert';
import { stableFingerprint, titleKey } from '../fingerprint';
import { parseOrThrow } from '../../validation';
import { orderLinks } from './prometheus-alert';
import { addAttachments, addBlocks, addText, emptyContent, type SlackContent } from './slack-content';
import { colorMeaning, mostSevere, severityFromText, statusFromWords } from './slack-guess';
import { slackToPlain } from './slack-text';

/**
 * A Slack incoming-webhook body (`{text}`, `{attachments}`, `{blocks}`, or a mix), as Jenkins,
 * GitLab, Zabbix, Uptime Kuma and Alertmanager's `slack_config` send it. Blocks and attachments
 * are read loosely: unknown block types are skipped, never rejected.
 */
export const SlackPayloadSchema = z
  .looseObject({
    text: z.string().optional(),
    blocks: z.array(z.unknown()).optional(),
    attachments: z.array(z.unknown()).optional(),
    username: z.string().optional(),
    channel: z.string().optional(),
  })
  .refine((body) => Boolean(body.text?.trim()) || Boolean(body.blocks?.length) || Boolean(body.attachments?.length), {
    path: ['text'],
    message: 'a Slack-style body needs text, attachments or blocks',
  });
type SlackPayload = z.infer<typeof SlackPayloadSchema>;

/**
 * Map a Slack-style message to one alert. Slack messages carry no state or id, so both are
 * guessed: the status from the title's words (RESOLVED, FIRING, PROBLEM, down...), then the
 * colour bar, then the text; the severity from a `Severity` field or line, then the colour; the
 * fingerprint from the title without its status words, so firing and resolved messages of one
 * alert share it.
 *
 * @example parseSlack({ text: '[RESOLVED] Disk full on db-02' })[0].alerts[0].status // 'resolved'
 */
export function parseSlack(body: unknown): AlertGroup[] {
  const payload = parseOrThrow(SlackPayloadSchema, body, 'body');
  const content = collect(payload);
  const alert = toAlert(payload, content);
  return [{ source: 'slack', groupKey: alert.fingerprint, status: alert.status, alerts: [alert], commonLabels: alert.labels }];
}

function collect(payload: SlackPayload): SlackContent {
  const content = emptyContent();
  // with blocks, Slack shows `text` only in notifications: it is the summary, not the body
  if (!payload.blocks?.length) addText(payload.text, content);
  addBlocks(payload.blocks, content);
  addAttachments(payload.attachments, content);
  return content;
}

function toAlert(payload: SlackPayload, content: SlackContent): Alert {
  const bodyLines = content.lines.join('\n').split('\n');
  const fromLines = content.headers[0] === undefined && content.titles[0] === undefined;
  const title = cleanTitle(content.headers[0] ?? content.titles[0] ?? firstNonEmpty(bodyLines) ?? 'Alert');
  const rest = fromLines ? dropFirstNonEmpty(bodyLines) : bodyLines;
  const fieldLines = content.fields.map((field) => `${field.name}: ${field.value}`);
  const description = [...rest, ...fieldLines].join('\n').trim();
  const fallback = payload.blocks?.length && payload.text ? slackToPlain(payload.text).text : undefined;
  const severity = guessSeverity(content, description);
  const fingerprint = stableFingerprint('slack', titleKey(title));
  return {
    source: 'slack',
    fingerprint,
    status: guessStatus(title, content, description),
    severity: severity.severity,
    ...(severity.raw !== undefined && { severityRaw: severity.raw }),
    title,
    summary: fallback ?? firstNonEmpty(rest) ?? '',
    ...(description !== '' && { description }),
    labels: fieldLabels(content),
    links: orderLinks(content.links),
    ...(content.images.length > 0 && { images: [...new Set(content.images)] }),
    groupKey: fingerprint,
  };
}

function guessStatus(title: string, content: SlackContent, text: string): AlertStatus {
  const fromColor = content.colors.map(colorMeaning).find((meaning) => meaning !== undefined);
  return statusFromWords(title) ?? fromColor?.status ?? statusFromWords(text) ?? 'firing';
}

function guessSeverity(content: SlackContent, text: string): { severity: Severity; raw?: string } {
  const field = content.fields.filter((f) => /^(severity|priority|level)$/i.test(f.name)).map((f) => f.value);
  const stated = mostSevere(field) ?? severityFromText(text);
  if (stated) return stated;
  const fromColor = content.colors.map(colorMeaning).find((meaning) => meaning !== undefined);
  return { severity: fromColor?.severity ?? 'none' };
}

/** Short fields (`Severity`, `Environment`) become labels, so routing can match them. */
function fieldLabels(content: SlackContent): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const { name, value } of content.fields) {
    const key = name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
    if (key !== '' && !value.includes('\n') && labels[key] === undefined) labels[key] = value;
  }
  return labels;
}

/** Drop leading emoji shortcodes (`:rotating_light:`), which read as noise in plain text. */
function cleanTitle(title: string): string {
  return title.replace(/^(\s*:[a-z0-9_+-]+:)+\s*/i, '').trim();
}

function firstNonEmpty(lines: readonly string[]): string | undefined {
  return lines.find((line) => line.trim() !== '')?.trim();
}

function dropFirstNonEmpty(lines: readonly string[]): string[] {
  const index = lines.findIndex((line) => line.trim() !== '');
  return index === -1 ? [] : lines.slice(index + 1);
}

import { z } from 'zod';
import type { Alert, AlertGroup, AlertStatus, Severity } from '../alert';
import { stableFingerprint } from '../fingerprint';
import { SnsMessageSchema, type SnsMessage } from '../sns/sns-message';
import { parseTimestamp } from '../timestamp';
import { parseOrThrow } from '../../validation';
import { linkIf, optional } from './prometheus-alert';

/**
 * The JSON a CloudWatch alarm publishes to its SNS topic as `Message` (the alarm's name, its new state
 * and why, the metric it watches). Composite and metric-math alarms have no `Trigger.MetricName`;
 * every field but the name and the state is optional here.
 */
const CloudWatchAlarmSchema = z.looseObject({
  AlarmName: z.string().min(1),
  NewStateValue: z.enum(['ALARM', 'OK', 'INSUFFICIENT_DATA']),
  NewStateReason: z.string().nullish(),
  AlarmDescription: z.string().nullish(),
  AWSAccountId: z.string().nullish(),
  Region: z.string().nullish(),
  AlarmArn: z.string().nullish(),
  StateChangeTime: z.string().nullish(),
  OldStateValue: z.string().nullish(),
  Trigger: z
    .looseObject({
      MetricName: z.string().nullish(),
      Namespace: z.string().nullish(),
      Dimensions: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).nullish(),
    })
    .nullish(),
});
type CloudWatchAlarm = z.infer<typeof CloudWatchAlarmSchema>;

// ALARM fires; OK resolves; INSUFFICIENT_DATA (the metric stopped reporting, or the alarm is new) fires
// at warning level under the same fingerprint, so the next OK resolves it too
const STATES: Record<CloudWatchAlarm['NewStateValue'], { status: AlertStatus; severity: Severity }> = {
  ALARM: { status: 'firing', severity: 'error' },
  INSUFFICIENT_DATA: { status: 'firing', severity: 'warning' },
  OK: { status: 'resolved', severity: 'error' },
};

/**
 * An SNS message posted to an HTTP/S subscription, already verified (the route checks the signature,
 * the certificate's host and the topic before this runs). A `Notification` whose `Message` is a
 * CloudWatch alarm becomes that alarm, firing on ALARM and resolved on OK, one fingerprint per alarm;
 * any other `Message` is kept as text, a firing alert titled by `Subject`. The two confirmations carry
 * no alert.
 *
 * @example parseSns(body)[0].alerts[0] // { source: 'cloudwatch', title: 'intranet-api 5xx', status: 'firing', ... }
 */
export function parseSns(body: unknown): AlertGroup[] {
  const message = parseOrThrow(SnsMessageSchema, body, 'body');
  if (message.Type !== 'Notification') return [];
  const alarm = cloudWatchAlarmIn(message.Message);
  const alert = alarm ? fromAlarm(alarm) : fromText(message);
  return [{ source: alert.source, groupKey: alert.groupKey ?? alert.fingerprint, status: alert.status, alerts: [alert], commonLabels: alert.labels }];
}

function cloudWatchAlarmIn(text: string): CloudWatchAlarm | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const alarm = CloudWatchAlarmSchema.safeParse(parsed);
  return alarm.success ? alarm.data : undefined;
}

function fromAlarm(alarm: CloudWatchAlarm): Alert {
  const { status, severity } = STATES[alarm.NewStateValue];
  const changedAt = parseTimestamp(alarm.StateChangeTime);
  // the alarm's ARN names it across its state changes; without one, its name in its account and region
  const fingerprint = `cloudwatch-${stableFingerprint(alarm.AlarmArn ?? `${alarm.AWSAccountId ?? ''}:${alarm.Region ?? ''}:${alarm.AlarmName}`)}`;
  return {
    source: 'cloudwatch',
    fingerprint,
    status,
    severity,
    severityRaw: alarm.NewStateValue,
    title: alarm.AlarmName,
    summary: alarm.NewStateReason ?? '',
    ...optional('description', alarm.AlarmDescription ?? undefined),
    labels: alarmLabels(alarm),
    ...optional('startedAt', status === 'firing' ? changedAt : undefined),
    ...optional('endedAt', status === 'resolved' ? changedAt : undefined),
    links: linkIf('source', 'CloudWatch alarm', consoleUrl(alarm)),
    groupKey: fingerprint,
  };
}

/** The alarm's metric and dimensions as labels (`InstanceId: i-0abc...`), after the alarm's own ones, which a dimension never replaces. */
function alarmLabels(alarm: CloudWatchAlarm): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const dimension of alarm.Trigger?.Dimensions ?? []) {
    if (dimension.value !== null && dimension.value !== undefined) labels[dimension.name] = String(dimension.value);
  }
  const own = {
    alarm: alarm.AlarmName,
    account: alarm.AWSAccountId,
    region: alarm.Region,
    metric: alarm.Trigger?.MetricName,
    namespace: alarm.Trigger?.Namespace,
  };
  for (const [name, value] of Object.entries(own)) if (value) labels[name] = value;
  return labels;
}

/** The alarm in the CloudWatch console, from its ARN (`arn:aws:cloudwatch:<region>:<account>:alarm:<name>`); the commercial partition only. */
function consoleUrl(alarm: CloudWatchAlarm): string | undefined {
  const parts = alarm.AlarmArn?.split(':');
  if (parts?.[0] !== 'arn' || parts[1] !== 'aws' || parts[2] !== 'cloudwatch' || !parts[3]) return undefined;
  return `https://console.aws.amazon.com/cloudwatch/home?region=${parts[3]}#alarmsV2:alarm/${encodeURIComponent(alarm.AlarmName)}`;
}

/** A message that is not an alarm: its text as published. Each message is an alert of its own (its `MessageId`, the same in SNS's retries). */
function fromText(message: SnsMessage): Alert {
  const firstLine = message.Message.trim().split('\n')[0]?.slice(0, 200) ?? '';
  const fingerprint = `sns-${stableFingerprint(message.TopicArn, message.MessageId)}`;
  return {
    source: 'sns',
    fingerprint,
    status: 'firing',
    severity: 'none',
    title: message.Subject?.trim() || firstLine || topicName(message.TopicArn),
    summary: message.Message,
    labels: { topic: topicName(message.TopicArn) },
    ...optional('startedAt', parseTimestamp(message.Timestamp)),
    links: [],
    groupKey: fingerprint,
  };
}

/** `alerts` of `arn:aws:sns:eu-west-1:123456789012:alerts`. */
function topicName(arn: string): string {
  return arn.split(':').at(-1) || arn;
}

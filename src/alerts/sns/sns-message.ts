import { z } from 'zod';

/** The three kinds of message SNS posts to an HTTP/S subscriber (`Type`, also sent as `x-amz-sns-message-type`). */
export const SnsMessageTypeSchema = z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']);
export type SnsMessageType = z.infer<typeof SnsMessageTypeSchema>;

/**
 * The JSON document SNS posts to an HTTP/S endpoint (Amazon SNS Developer Guide, "HTTP/HTTPS
 * notification JSON format" and "... subscription confirmation JSON format"). `Subject` is absent when
 * the publisher gave none; `SubscribeURL` and `Token` come with the two confirmations only. Unknown keys
 * are kept: SNS may add fields, and none of them is signed.
 */
export const SnsMessageSchema = z.looseObject({
  Type: SnsMessageTypeSchema,
  MessageId: z.string().min(1),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string().min(1),
  SignatureVersion: z.enum(['1', '2']),
  Signature: z.string().min(1),
  SigningCertURL: z.string().min(1),
  Subject: z.string().optional(),
  SubscribeURL: z.string().optional(),
  Token: z.string().optional(),
  UnsubscribeURL: z.string().optional(),
});
export type SnsMessage = z.infer<typeof SnsMessageSchema>;

// spec: Amazon SNS Developer Guide, "Verifying the signatures of Amazon SNS messages": the name-value
// pairs of the string to sign, in byte-sort order, per message type
const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const CONFIRMATION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;

/**
 * The string SNS signed for a message: each signed field as its name, a newline, its value (the JSON
 * already decoded, so `\n` is a newline again), a newline. A notification's `Subject` is left out when
 * the message has none.
 *
 * @example snsStringToSign({ Type: 'Notification', Message: 'hi', MessageId: 'm1', Timestamp: 't', TopicArn: 'arn', ... })
 * // 'Message\nhi\nMessageId\nm1\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n'
 */
export function snsStringToSign(message: SnsMessage): string {
  const fields = message.Type === 'Notification' ? NOTIFICATION_FIELDS : CONFIRMATION_FIELDS;
  let text = '';
  for (const name of fields) {
    const value = message[name];
    if (value === undefined) continue;
    text += `${name}\n${value}\n`;
  }
  return text;
}

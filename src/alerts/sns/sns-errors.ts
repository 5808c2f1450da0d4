import { IntrabotError, type IntrabotErrorOptions } from '../../errors';

/**
 * A verified SNS message from a topic the input does not list in `options.topics`: refused (403, which
 * SNS takes as a permanent failure, so it does not retry), nothing posted and no subscription confirmed.
 */
export class SnsTopicRefusedError extends IntrabotError {
  constructor(topic: string, optionsKey: string) {
    super('forbidden', `TopicArn: the topic "${topic}" is not in ${optionsKey}; add it there to accept its messages`, {
      details: { field: 'TopicArn', topic },
    });
  }

  /** The operator's configuration decides it: logged for them, once per message. */
  override get logLevel(): 'warn' {
    return 'warn';
  }
}

/** SNS's certificate or confirmation URL could not be fetched: SNS retries on the 503. */
export class AlertSourceUnreachableError extends IntrabotError {
  constructor(what: string, options: IntrabotErrorOptions = {}) {
    super('alert_source_unreachable', `${what} could not be fetched; retry later`, options);
  }
}

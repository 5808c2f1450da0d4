import type { z } from 'zod';
import { IntrabotError, InvalidInputError } from '../errors';
import { parseOrThrow } from '../validation';
import { isEventName, isReportName } from './events';
import { PAYLOAD_SCHEMAS } from './payloads';
import { REPORT_SCHEMAS } from './report';

/**
 * A delivery whose payload lacks what its event's type promises (`payload.id: expected number`). It was
 * signed, so it is acknowledged and kept, but no handler gets it: a handler typed with the checked payload
 * would read a field that is not there. The inbox dead-letters it at once (a retry cannot make it whole);
 * `intrabot deliveries replay` hands it over again once intrabot reads it (an upgrade).
 */
export class InvalidPayloadError extends IntrabotError {
  readonly field: string;
  constructor(event: string, cause: InvalidInputError) {
    super('invalid_payload', `${cause.message} (a ${event} payload, not handed to the bot)`, { cause, details: { event, field: cause.field } });
    this.field = cause.field;
  }
}

/**
 * Checks a delivery's payload against its event's (or report's) schema, the one check the runtime and
 * `testBot` share: the fields the types promise are checked, unknown fields pass (the payload is handed
 * on as it came, not as parsed). Names the platform does not send have no schema and pass (they are
 * ignored later). Throws `InvalidPayloadError` naming the field.
 *
 * @example checkPayload('post.created', { id: 'x' }) // throws: payload.id: Invalid input: expected number, received string (a post.created payload, ...)
 */
export function checkPayload(event: string, payload: unknown): void {
  const schema: z.ZodType | undefined = isEventName(event) ? PAYLOAD_SCHEMAS[event] : isReportName(event) ? REPORT_SCHEMAS[event] : undefined;
  if (!schema) return;
  try {
    parseOrThrow(schema, payload, 'payload');
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InvalidPayloadError(event, error);
    throw error;
  }
}

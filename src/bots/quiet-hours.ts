import { z } from 'zod';
import { minuteOfDay, quietUntil, type QuietWindow } from '../clock/quiet-window';
import { parseOrThrow } from '../validation';
import { HOLD_SENDS_UNTIL, type HandlerInput, type Middleware } from './middleware';

export interface QuietHoursOptions {
  /** When the quiet hours start each day, `HH:MM` on the tenant's wall clock (`'19:00'`). */
  from: string;
  /** When they end, `HH:MM` (`'08:00'`); before `from`, the window runs past midnight. */
  to: string;
  /** Saturday and Sunday are quiet all day as well. Default false. */
  weekends?: boolean;
  /**
   * Which runs may send at once during quiet hours. Default: commands, `help` and unknown-command
   * answers (someone is there, waiting for the answer); events, jobs and reports are held.
   */
  urgent?: (input: HandlerInput) => boolean;
}

const TimeSchema = z.string().refine((text) => minuteOfDay(text) !== undefined, 'expected a time of day such as "19:00"');

const OptionsSchema = z.strictObject({
  from: TimeSchema,
  to: TimeSchema,
  weekends: z.boolean().optional(),
  urgent: z.custom<(input: HandlerInput) => boolean>((value) => typeof value === 'function', 'expected a function').optional(),
});

const ANSWERS: ReadonlySet<HandlerInput['kind']> = new Set(['command', 'help', 'unknown', 'answer', 'reask', 'not-asked']);
const answersSomeone = (input: HandlerInput): boolean => ANSWERS.has(input.kind);

/**
 * Quiet hours: what a bot sends during them waits in the outbox until they end, on the tenant's wall
 * clock (`ctx.tenant.timezone`, daylight-saving changes included), then goes out paced as usual. The
 * handler runs at once; only its sends are held, durably (a restart does not lose or release them).
 * Answers to someone who just asked (commands, `help`) go out at once unless `urgent` says otherwise.
 *
 * @example
 * export default defineBot({ use: [quietHours({ from: '19:00', to: '08:00', weekends: true })], jobs: { remind } });
 */
export function quietHours(options: QuietHoursOptions): Middleware {
  const parsed = parseOrThrow(OptionsSchema, options, 'quietHours');
  const window: QuietWindow = { fromMinute: minuteOfDay(parsed.from)!, toMinute: minuteOfDay(parsed.to)!, weekends: parsed.weekends ?? false };
  const urgent = parsed.urgent ?? answersSomeone;

  return async (input, ctx, next) => {
    if (!urgent(input)) {
      const until = quietUntil(ctx.now(), ctx.tenant.timezone, window);
      if (until !== undefined) {
        HOLD_SENDS_UNTIL.set(ctx, until);
        ctx.log.info(`quiet hours: what ${input.what} sends waits until ${new Date(until).toISOString()}`, { heldUntil: until });
      }
    }
    await next();
  };
}

import { z } from 'zod';
import { DurationSchema } from './manifest-parts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Who is on call for a team, as an alert input's `oncall:` names it: one person, or a rota handed on
 * every `every` (default a week) from `from` (an ISO 8601 instant; write its offset, `09:00+01:00`, for
 * a hand-over in your zone), the first name first.
 */
export const OnCallSchema = z.union([
  z.strictObject({ person: z.string().trim().min(1) }),
  z.strictObject({
    rota: z.array(z.string().trim().min(1)).min(1),
    every: DurationSchema.default(WEEK_MS),
    from: z.iso.datetime({ offset: true, error: 'expected when the rota starts, an ISO 8601 time such as 2026-01-05T09:00:00+01:00' }),
  }),
]);
export type OnCall = z.output<typeof OnCallSchema>;

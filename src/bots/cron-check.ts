import { CronExpressionParser } from 'cron-parser';
import { validateDetailed } from 'node-cron';
import { closestName } from '../did-you-mean';

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/**
 * What is wrong with a cron expression, in words a bot author can act on; undefined when the scheduler
 * can run it. The scheduler reads slots with cron-parser, so that is the parser that decides here too:
 * node-cron (checked before it, for its messages naming the field) reads full names such as `MONDAY` that
 * cron-parser refuses, and a manifest that passed node-cron alone stopped the whole runtime when its
 * scheduler started (issue #24). Day and month names are the three-letter ones; a longer or misspelt
 * name is pointed at with the one meant.
 *
 * @example cronProblem('0 9 * * MONDAY') // => 'day of week "MONDAY" is not a name cron reads (did you mean "MON"?)'
 * @example cronProblem('0 9 * * MON') // => undefined
 */
export function cronProblem(expression: string): string | undefined {
  const name = misnamed(expression);
  if (name) return name;
  const detailed = validateDetailed(expression);
  if (!detailed.valid) return detailed.errors[0]?.message ?? 'not a cron expression';
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A word in the month or day-of-week field (the last two) that is not one of their three-letter names. */
function misnamed(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  const checks: Array<[string | undefined, string, readonly string[]]> = [
    [fields.at(-2), 'month', MONTH_NAMES],
    [fields.at(-1), 'day of week', DAY_NAMES],
  ];
  for (const [field, what, names] of checks) {
    const word = (field ?? '').split(/[,\-/]/).find((part) => /^[a-z]{2,}$/i.test(part) && !names.includes(part.toUpperCase()));
    if (word === undefined) continue;
    const meant = names.find((known) => word.toUpperCase().startsWith(known)) ?? closestName(word.toUpperCase(), names);
    return `${what} "${word}" is not a name cron reads${meant ? ` (did you mean "${meant}"?)` : `: use one of ${names.join(', ')} or a number`}`;
  }
  return undefined;
}

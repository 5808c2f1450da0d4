import { z } from 'zod';
import { InvalidInputError } from '../../errors';
import { expectedAnswer } from './expected-answer';

/** What an answer's text came to: its value, or why it is not one (said to the user before the question again). */
export type AnswerResult<T> = { ok: true; value: T } | { ok: false; hint: string };

/**
 * How a conversation step reads the answer's text: `yesNo()`, `choice([...])`, `freeText()`, or any zod
 * schema (given the trimmed text). An answer it refuses is not taken: the bot says the hint (or the
 * step's `retry`) and asks again, and the question keeps waiting.
 */
export interface Answer<T> {
  readonly kind: 'intrabot.answer';
  parse(text: string): AnswerResult<T>;
}

/** What a step's `answer` may be: an `Answer`, or a zod schema over the trimmed text. */
export type AnswerSpec<T> = Answer<T> | z.ZodType<T, any>;

/** The value type an answer spec gives (`boolean` for `yesNo()`). */
export type AnswerOf<A> = A extends Answer<infer T> ? T : A extends z.ZodType<infer T, any> ? T : string;

const YES = new Set(['yes', 'y', 'yeah', 'yep', 'ok', 'okay', 'sure', 'confirm', 'go', 'do it', '👍', 'ja']);
const NO = new Set(['no', 'n', 'nope', 'cancel', 'stop', 'abort', "don't", 'dont', '👎', 'nein']);

/** The words of an answer, as compared: trimmed, lower case, without trailing punctuation. */
function normalised(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[.!?,;:]+$/u, '')
    .trim();
}

/**
 * Yes or no: `yes`, `y`, `ok`, `sure`, `confirm`... give `true`; `no`, `n`, `cancel`, `stop`... give
 * `false` (case and a trailing `!` or `.` do not matter).
 *
 * @example
 * conversations: { confirm: { answer: yesNo(), run: async (yes, state, ctx) => ctx.reply(yes ? 'Deploying.' : 'Cancelled.') } }
 */
export function yesNo(): Answer<boolean> {
  return {
    kind: 'intrabot.answer',
    parse(text) {
      const words = normalised(text);
      if (YES.has(words)) return { ok: true, value: true };
      if (NO.has(words)) return { ok: true, value: false };
      return { ok: false, hint: 'Please answer yes or no.' };
    },
  };
}

/**
 * One of a list (case does not matter; a unique start of an option, or its number in the list, is
 * taken too): gives the option as written in the list.
 *
 * @example
 * await ctx.ask({ prompt: 'Which office? Berlin, Lisbon or Austin', step: 'office', state: {} });
 * conversations: { office: { answer: choice(['Berlin', 'Lisbon', 'Austin']), run: async (office, state, ctx) => ... } }
 */
export function choice<const T extends string>(options: readonly T[]): Answer<T> {
  if (options.length === 0) throw new InvalidInputError('choice', 'choice: give at least one option');
  const listed = options.join(', ');
  return {
    kind: 'intrabot.answer',
    parse(text) {
      const words = normalised(text);
      const exact = options.find((option) => option.toLowerCase() === words);
      if (exact !== undefined) return { ok: true, value: exact };
      const index = /^\d+$/.test(words) ? Number(words) - 1 : -1;
      if (index >= 0 && index < options.length) return { ok: true, value: options[index]! };
      const starting = words === '' ? [] : options.filter((option) => option.toLowerCase().startsWith(words));
      if (starting.length === 1) return { ok: true, value: starting[0]! };
      return { ok: false, hint: `Please answer with one of: ${listed}.` };
    },
  };
}

/**
 * Any text (trimmed), within length limits.
 *
 * @example
 * conversations: { reason: { answer: freeText({ max: 200 }), run: async (reason, state, ctx) => ... } }
 */
export function freeText(options: { min?: number; max?: number } = {}): Answer<string> {
  const min = Math.max(1, options.min ?? 1);
  const max = options.max ?? 10_000;
  return {
    kind: 'intrabot.answer',
    parse(raw) {
      const value = raw.trim();
      if (value.length < min) return { ok: false, hint: min === 1 ? 'Please write an answer.' : `Please write at least ${min} characters.` };
      if (value.length > max) return { ok: false, hint: `Please keep it to ${max} characters (yours has ${value.length}).` };
      return { ok: true, value };
    },
  };
}

/** Whether a value is an `Answer` made by `yesNo`, `choice` or `freeText` (or by hand). */
export function isAnswer(value: unknown): value is Answer<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'intrabot.answer';
}

/** Reads an answer's text with a step's spec: free text when there is none, a zod schema over the trimmed text. */
export function parseAnswer(spec: AnswerSpec<unknown> | undefined, raw: string): AnswerResult<unknown> {
  if (spec === undefined) return freeText().parse(raw);
  if (isAnswer(spec)) return spec.parse(raw);
  const result = spec.safeParse(raw.trim());
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, hint: schemaHint(spec) };
}

/**
 * The re-ask of a zod schema's step: what it takes, in words (`expectedAnswer`), never zod's own message
 * ("Invalid input: expected number, received NaN" was said to employees). A schema whose answer cannot
 * be told gets a plain sentence; the step's `retry` gives the bot's own words.
 */
export function schemaHint(schema: z.ZodType): string {
  const expected = expectedAnswer(schema);
  return expected ? `Please answer with ${expected}.` : DEFAULT_RETRY;
}

/** The re-ask when neither the answer's kind nor the step's `retry` says what is expected. */
export const DEFAULT_RETRY = 'Sorry, I cannot take that as an answer. Please try again.';

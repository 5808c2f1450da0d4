import type { z } from 'zod';
import { InvalidInputError } from '../errors';
import { describeIssues } from '../validation';
import { StoreExportHeaderSchema, StoreRecordSchema, type StoreExportHeader, type StoreRecord } from './store-records';
import type { StoreExport } from './store-transfer';

const RECORD_TYPES: readonly string[] = StoreRecordSchema.options.map((option) => option.shape.type.value);

/** One JSON line per item (the header, then the records). */
export function exportLine(item: StoreExportHeader | StoreRecord): string {
  return `${JSON.stringify(item)}\n`;
}

/**
 * Reads an export's lines, checking every one before returning anything: the first line is the header,
 * each other one a record. A bad line is an `InvalidInputError` whose field names the line and the field
 * (`line 4: payload: ...`); blank lines are skipped (a trailing newline, say).
 *
 * @example
 * const data = await parseStoreExport(readline.createInterface({ input: createReadStream(file) }));
 */
export async function parseStoreExport(lines: AsyncIterable<string> | Iterable<string>): Promise<StoreExport> {
  let header: StoreExportHeader | undefined;
  const records: StoreRecord[] = [];
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    const value = parseJson(line, number);
    if (header === undefined) header = checked(StoreExportHeaderSchema, value, number, 'the header');
    else records.push(checked(StoreRecordSchema, value, number, knownType(value, number)));
  }
  if (header === undefined) throw new InvalidInputError('line 1', 'line 1: the export is empty (expected the intrabot-store header)');
  return { header, records };
}

function parseJson(line: string, number: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    // the parser's message quotes the line, which may hold a payload: it stays out of the error
    throw new InvalidInputError(`line ${number}`, `line ${number}: not a JSON value`);
  }
}

/** What a record line is said to be: an unknown `type` is named as such, not as a failed union. */
function knownType(value: unknown, number: number): string {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && RECORD_TYPES.includes(type)) return `the ${type} record`;
  throw new InvalidInputError(
    `line ${number}.type`,
    `line ${number}: type: ${JSON.stringify(type) ?? 'missing'} is not a record type (expected one of ${RECORD_TYPES.join(', ')})`,
  );
}

function checked<S extends z.ZodType>(schema: S, value: unknown, number: number, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { field, problem } = describeIssues(result.error);
  throw new InvalidInputError(`line ${number}.${field}`, `line ${number}: ${field}: ${problem} (in ${what})`, { problem });
}

// docs/errors.md is where a user looks up a code they got back; src/errors.ts is the one registry of codes
// and the statuses the runtime answers with. The page must list every code, no code that does not exist,
// and the status the runtime really answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');

interface Row {
  code: string;
  status: number;
  meaning: string;
  action: string;
}

/** The rows of the page's tables: `| \`code\` | status | what it means | what to do |`. */
function rowsOf(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const match = /^\| `([a-z_]+)` \| (\d{3}) \| (.*) \| (.*) \|$/.exec(line);
    if (match) rows.push({ code: match[1]!, status: Number(match[2]), meaning: match[3]!.trim(), action: match[4]!.trim() });
  }
  return rows;
}

const ROWS = rowsOf(PAGE);
const REGISTERED = Object.keys(ERROR_CODES);

describe('docs/errors.md', () => {
  it('lists every code of ERROR_CODES', () => {
    const listed = new Set(ROWS.map((row) => row.code));
    expect(REGISTERED.filter((code) => !listed.has(code))).toEqual([]);
  });

  it('lists no code that ERROR_CODES does not have', () => {
    expect(ROWS.map((row) => row.code).filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it('lists each code once', () => {
    const codes = ROWS.map((row) => row.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });

  it('gives each code the HTTP status the runtime answers it with', () => {
    const wrong = ROWS.filter((row) => row.code in ERROR_CODES && ERROR_CODES[row.code as keyof typeof ERROR_CODES].status !== row.status).map(
      (row) => `${row.code}: ${row.status} on the page, ${ERROR_CODES[row.code as keyof typeof ERROR_CODES].status} in src/errors.ts`,
    );
    expect(wrong).toEqual([]);
  });

  it('says for each code what it means and what to do', () => {
    expect(ROWS.filter((row) => row.meaning.length < 20 || row.action.length < 10).map((row) => row.code)).toEqual([]);
  });
});

describe('rowsOf', () => {
  it('reads code, status, meaning and action from a table row, and skips headers and other tables', () => {
    const text = [
      '| code | status | what it means | what to do |',
      '|---|---|---|---|',
      '| `signature_stale` | 401 | The Timestamp header is old. | Synchronise the clock. |',
      '| Status | `error` | When |',
      '| 400 | `invalid_input` | a bad path |',
    ].join('\n');
    expect(rowsOf(text)).toEqual([{ code: 'signature_stale', status: 401, meaning: 'The Timestamp header is old.', action: 'Synchronise the clock.' }]);
  });
});

import type { CheckResult } from './run-conformance';

const HEADER = { check: 'check', section: 'spec section', sandbox: 'sandbox', result: 'result' };
/** Wide enough for `skipped`. */
const SANDBOX_WIDTH = 7;

/** `pass`, `fail: <message>` or `skipped: <reason>`. */
export function resultText(result: CheckResult): string {
  if (result.outcome === 'pass') return 'pass';
  return `${result.outcome}: ${result.message ?? 'no detail'}`;
}

/** The counts of a run, as its last line says them. */
export function summarize(results: readonly CheckResult[]): { pass: number; fail: number; skipped: number } {
  const count = (outcome: CheckResult['outcome']): number => results.filter((r) => r.outcome === outcome).length;
  return { pass: count('pass'), fail: count('fail'), skipped: count('skipped') };
}

/** Rows whose outcome on the host is not the sandbox's. */
export function differences(results: readonly CheckResult[], sandbox: readonly CheckResult[]): CheckResult[] {
  const reference = new Map(sandbox.map((r) => [r.id, r.outcome]));
  return results.filter((r) => reference.has(r.id) && reference.get(r.id) !== r.outcome);
}

/**
 * Column widths, known before any check has run (from the list of checks), so that rows can be
 * printed as their checks finish: a run against a real host takes minutes.
 */
export interface ParityLayout {
  idWidth: number;
  sectionWidth: number;
  /** Whether a `sandbox` column shows the same check's outcome against a fresh sandbox. */
  withSandbox: boolean;
}

export function parityLayout(checks: readonly { id: string; section: string }[], withSandbox: boolean): ParityLayout {
  return {
    idWidth: Math.max(HEADER.check.length, ...checks.map((c) => c.id.length)),
    sectionWidth: Math.max(HEADER.section.length, ...checks.map((c) => c.section.length)),
    withSandbox,
  };
}

function line(layout: ParityLayout, check: string, section: string, sandbox: string, result: string): string {
  const parity = layout.withSandbox ? `${sandbox.padEnd(SANDBOX_WIDTH)}  ` : '';
  return `${`${check.padEnd(layout.idWidth)}  ${section.padEnd(layout.sectionWidth)}  ${parity}${result}`.trimEnd()}\n`;
}

/** The header and its rule. */
export function parityHeader(layout: ParityLayout): string {
  const rule = (width: number): string => '-'.repeat(width);
  return (
    line(layout, HEADER.check, HEADER.section, HEADER.sandbox, HEADER.result) +
    line(layout, rule(layout.idWidth), rule(layout.sectionWidth), rule(SANDBOX_WIDTH), rule(HEADER.result.length))
  );
}

/** One check's line; `sandbox` is that check's outcome against the sandbox, when compared. */
export function parityRow(layout: ParityLayout, result: CheckResult, sandbox?: CheckResult['outcome']): string {
  return line(layout, result.id, result.section, sandbox ?? '-', resultText(result));
}

/** The closing lines: counts, the host, and how many rows differ from the sandbox. */
export function paritySummary(results: readonly CheckResult[], host: string, sandbox?: readonly CheckResult[]): string {
  const { pass, fail, skipped } = summarize(results);
  const differ = sandbox ? `; ${differences(results, sandbox).length} differ from the sandbox` : '';
  return `\n${pass} passed, ${fail} failed, ${skipped} skipped against ${host}${differ}\n`;
}

/**
 * The parity table: one line per check with the spec section it checks and its result, then a
 * summary line naming the host. With `sandbox` (the same checks against a fresh sandbox), a
 * `sandbox` column shows its outcome beside the host's, and the summary counts the rows that
 * differ: where the emulator and the platform part ways. Pure.
 *
 * @example formatParityTable(results, 'https://acme.example')
 * // check                    spec section   result
 * // pagination.per-page-cap  Pagination     pass
 */
export function formatParityTable(results: readonly CheckResult[], host: string, sandbox?: readonly CheckResult[]): string {
  const layout = parityLayout(results, sandbox !== undefined);
  const reference = new Map((sandbox ?? []).map((r) => [r.id, r.outcome]));
  return parityHeader(layout) + results.map((r) => parityRow(layout, r, reference.get(r.id))).join('') + paritySummary(results, host, sandbox);
}

/**
 * What every benchmark prints: a few human-readable lines, then one machine-readable JSON line per
 * benchmark (`{"bench":...}`) that `bench/run.ts` collects into its summary table.
 */

/** One checked target: a measured value against its DESIGN.md bound. */
export interface TargetResult {
  /** The target as DESIGN.md words it, shortly. */
  target: string;
  value: number;
  unit: string;
  /** `value` must be at most (`max`) or at least (`min`) `bound`. */
  bound: number;
  kind: 'max' | 'min';
  pass: boolean;
}

/** A measurement reported for reading, not checked against a target. */
export interface InfoResult {
  name: string;
  value: number | string;
  unit?: string;
}

/** A target that could not be measured in this run, and why (e.g. no Redis to run the durable peer on). */
export interface SkippedTarget {
  target: string;
  unit: string;
  bound: number;
  kind: 'max' | 'min';
  reason: string;
}

export interface BenchResult {
  bench: string;
  targets: TargetResult[];
  /** Absent from older results: nothing skipped. */
  skipped?: SkippedTarget[];
  info: InfoResult[];
  notes: string[];
}

export function target(name: string, value: number, unit: string, kind: 'max' | 'min', bound: number): TargetResult {
  const pass = Number.isFinite(value) && (kind === 'max' ? value <= bound : value >= bound);
  return { target: name, value: round(value), unit, bound, kind, pass };
}

export function skipped(name: string, unit: string, kind: 'max' | 'min', bound: number, reason: string): SkippedTarget {
  return { target: name, unit, bound, kind, reason };
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Prints the human lines and the JSON line (prefixed by nothing, so `JSON.parse(line)` reads it). */
export function emit(result: BenchResult): void {
  for (const t of result.targets) {
    const sign = t.kind === 'max' ? '<=' : '>=';
    console.log(`  [${t.pass ? 'pass' : 'MISS'}] ${t.target}: ${t.value} ${t.unit} (target ${sign} ${t.bound})`);
  }
  for (const s of result.skipped ?? []) console.log(`  [skipped] ${s.target}: ${s.reason}`);
  for (const i of result.info) console.log(`  ${i.name}: ${i.value}${i.unit ? ` ${i.unit}` : ''}`);
  for (const n of result.notes) console.log(`  note: ${n}`);
  console.log(JSON.stringify(result));
}

/** Reads the JSON result lines out of a benchmark's output. */
export function parseResults(output: string): BenchResult[] {
  const results: BenchResult[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{"bench":')) continue;
    try {
      results.push(JSON.parse(line) as BenchResult);
    } catch {
      // a torn line is not a result
    }
  }
  return results;
}

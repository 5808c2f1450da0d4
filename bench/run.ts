import { performance } from 'node:perf_hooks';
import { benchFile, runTs } from './lib/child';
import { parseResults, type BenchResult } from './lib/result';
import { startScript } from './lib/start-flags';

/**
 * `npm run bench` runs every benchmark in sequence, each in its own process (nothing one leaves
 * behind can skew the next), then prints one table of the DESIGN.md targets: measured value and
 * pass/miss. `npm run bench -- ingest pacing` runs only those. The exit code is 0 even when a target
 * is missed (the table says so); it is 1 when a benchmark could not run.
 */
const BENCHES = ['ingest', 'pacing', 'startup'] as const;

const USAGE = `usage: npm run bench [-- <benchmark>...]   (or: npx tsx bench/run.ts [<benchmark>...])

Runs the benchmarks of DESIGN.md's targets, each in its own process, and prints one table: measured
value, bound, pass or MISS. With no names, runs them all: ${BENCHES.join(', ')}.
Redis: INTRABOT_REDIS_URL (ingest tries redis://127.0.0.1:6379 without it and skips what needs Redis
when none answers; pacing shares one SQLite file without it). bench/README.md says what each measures.
The exit code is 0 even when a target is missed, 1 when a benchmark could not run, 2 for unknown names.`;

async function main(): Promise<number> {
  const asked = process.argv.slice(2).filter((a) => a !== '--');
  if (asked.some((a) => a === '--help' || a === '-h' || a === 'help')) {
    console.log(USAGE);
    return 0;
  }
  const unknown = asked.filter((a) => !(BENCHES as readonly string[]).includes(a));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  const chosen = asked.length > 0 ? asked : [...BENCHES];
  const results: BenchResult[] = [];
  const failures: string[] = [];
  const started = performance.now();
  for (const name of chosen) {
    console.log(`\n== ${name} ==`);
    const t0 = performance.now();
    try {
      // ingest runs the runtime in its own process: with the node flags `npm start` uses, as users run it
      const nodeFlags = name === 'ingest' ? startScript().nodeFlags : [];
      const output = await runTs(benchFile(`${name}.ts`), [], { echo: true, timeoutMs: 300_000, nodeFlags }).done;
      results.push(...parseResults(output));
    } catch (error) {
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    console.log(`(${name} took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  printSummary(results, failures, performance.now() - started);
  return failures.length > 0 ? 1 : 0;
}

function printSummary(results: BenchResult[], failures: string[], elapsedMs: number): void {
  const rows = results.flatMap((r) =>
    r.targets.map((t) => [
      r.bench,
      t.target,
      `${t.value} ${t.unit}`.trim(),
      `${t.kind === 'max' ? '<=' : '>='} ${t.bound} ${t.unit}`.trim(),
      t.pass ? 'pass' : 'MISS',
    ]),
  );
  const skips = results.flatMap((r) =>
    (r.skipped ?? []).map((t) => [r.bench, t.target, '-', `${t.kind === 'max' ? '<=' : '>='} ${t.bound} ${t.unit}`.trim(), 'skipped']),
  );
  const header = ['bench', 'target', 'measured', 'bound', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...[...rows, ...skips].map((row) => row[i]!.length)));
  const format = (row: string[]): string => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`\n== summary (${(elapsedMs / 1000).toFixed(0)} s) ==`);
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of [...rows, ...skips]) console.log(format(row));
  for (const reason of new Set(results.flatMap((r) => (r.skipped ?? []).map((t) => `${r.bench}: ${t.reason}`)))) console.log(`skipped ${reason}`);
  for (const failure of failures) console.log(`FAILED TO RUN ${failure}`);
  const missed = rows.filter((row) => row[4] === 'MISS').length;
  console.log(
    `${rows.length - missed} of ${rows.length} targets met${skips.length ? `, ${skips.length} skipped` : ''}${failures.length ? `; ${failures.length} benchmark(s) failed to run` : ''}`,
  );
}

process.exitCode = await main();

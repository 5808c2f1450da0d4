import { readFileSync } from 'node:fs';
import { benchFile } from './child';

/**
 * What `npm start` runs, split into node's flags and the rest, read from package.json's `start`
 * script so the benchmarks measure the runtime as users run it (V8 heap settings change both memory
 * and throughput) and cannot drift from it.
 */
export function startScript(): { nodeFlags: string[]; args: string[] } {
  const script = (JSON.parse(readFileSync(benchFile('../package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [node, ...rest] = script.split(/\s+/);
  if (node !== 'node') throw new Error(`package.json's start script does not run node: ${script}`);
  const firstArg = rest.findIndex((part) => !part.startsWith('--'));
  return { nodeFlags: rest.slice(0, firstArg), args: rest.slice(firstArg) };
}

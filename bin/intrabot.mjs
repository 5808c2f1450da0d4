#!/usr/bin/env -S node --max-semi-space-size=4 --expose-gc
// --max-semi-space-size=4: a bot runtime is not allocation-bound, and the young generation's default
// 16 MB halves cost about 25 MB of resident memory (bench/startup.ts). --expose-gc: `start` runs one
// full collection once it is up (src/cli/commands/start.ts). The same flags are in `npm start`.
// The CLI runs from a build of src/ (bin/build.mjs, redone when the sources change), so no TypeScript
// loader sits in the process; bots are compiled as they load (src/bots/bot-bundler.ts). Should the
// build fail, the sources run through tsx, as in development.
import { ensureBuild } from './build.mjs';

let entry;
try {
  entry = new URL(`file://${await ensureBuild()}/cli/main.js`);
} catch (error) {
  process.stderr.write(`intrabot: could not build (${error instanceof Error ? error.message : String(error)}); running the sources through tsx\n`);
  const { register } = await import('tsx/esm/api');
  register();
  entry = new URL('../src/cli/main.ts', import.meta.url);
}
const { main } = await import(entry.href);
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`intrabot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

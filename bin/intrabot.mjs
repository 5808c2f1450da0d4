#!/usr/bin/env -S node --max-semi-space-size=8 --v8-pool-size=1 --expose-gc
// Memory over throughput, for a runtime that mostly waits: --max-semi-space-size=8 (V8's default young
// generation of 16 MB halves costs ~20 MB of resident memory), --v8-pool-size=1 (fewer V8 helper
// threads: with four, start-up's compilations left up to 35 MB behind now and then), --expose-gc
// (`start` runs one full collection once it is up). bench/README.md measures both sides; the same
// flags are in `npm start` and the Dockerfile.
// Installed from the package, the CLI runs from dist/ (plain ES modules, built before packing). In a
// checkout of the repository (src/ beside this file) it runs from a build of src/ (bin/build.mjs,
// redone when the sources change), so no TypeScript loader sits in the process; bots are compiled as
// they load (src/bots/bot-bundler.ts). Should that build fail, the sources run through tsx (a dev
// dependency), as in development.
import { existsSync } from 'node:fs';

let entry;
if (!existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
  entry = new URL('../dist/cli/main.js', import.meta.url);
} else {
  try {
    const { ensureBuild } = await import('./build.mjs');
    entry = new URL(`file://${await ensureBuild()}/cli/main.js`);
  } catch (error) {
    process.stderr.write(`intrabot: could not build (${error instanceof Error ? error.message : String(error)}); running the sources through tsx\n`);
    const { register } = await import('tsx/esm/api');
    register();
    entry = new URL('../src/cli/main.ts', import.meta.url);
  }
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

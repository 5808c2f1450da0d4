import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// npm run test:package: the package as a new user installs it (test/package/package.test.ts). Minutes
// of packing, installing and type-checking, one step after another, so kept out of `npm test`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 15 * 60_000,
    maxWorkers: 1,
    minWorkers: 1,
  },
});

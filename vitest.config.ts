import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** The package's entry points, as bots import them, resolved to the sources (as tsconfig.json's `paths`). */
const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export const intrabotAliases = [
  { find: /^intrabot$/, replacement: source('index.ts') },
  { find: /^intrabot\/helpers$/, replacement: source('helpers/index.ts') },
  { find: /^intrabot\/testing$/, replacement: source('testing/index.ts') },
];

/**
 * Tests that run in the test's own process only (schemas, the sandbox, handlers, the proxy, alerts, on
 * in-process servers and stores they close): they share a worker's loaded modules, file after file,
 * instead of loading intrabot's modules again for every file, which took as long as their tests.
 */
const IN_PROCESS = [
  'test/api/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/bots/**/*.test.ts',
  'test/alerts/**/*.test.ts',
  'test/proxy/**/*.test.ts',
  'test/templates/**/*.test.ts',
  'test/clock/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/did-you-mean.test.ts',
];

export default defineConfig({
  resolve: { alias: intrabotAliases },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // two cores: integration tests start servers; a few files at a time keeps them honest
    maxWorkers: 2,
    minWorkers: 1,
    // the in-process files' pool reuses its workers' modules; every other file gets a fresh process
    poolOptions: { threads: { isolate: false }, forks: { isolate: true } },
    projects: [
      {
        extends: true,
        // first, on their own: the two pools never run at once (two workers on two cores)
        test: { name: 'in-process', include: IN_PROCESS, pool: 'threads', sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: ['test/**/*.test.ts', 'bots/**/*.test.ts'],
          // packs and installs the package (minutes): npm run test:package, its own step in CI
          exclude: [...configDefaults.exclude, 'test/package/**', ...IN_PROCESS],
          pool: 'forks',
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** The package's entry points, as bots import them, resolved to the sources (as tsconfig.json's `paths`). */
const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export const intrabotAliases = [
  { find: /^intrabot$/, replacement: source('index.ts') },
  { find: /^intrabot\/helpers$/, replacement: source('helpers/index.ts') },
  { find: /^intrabot\/testing$/, replacement: source('testing/index.ts') },
];

export default defineConfig({
  resolve: { alias: intrabotAliases },
  test: {
    include: ['test/**/*.test.ts', 'bots/**/*.test.ts'],
    // packs and installs the package (minutes): npm run test:package, its own step in CI
    exclude: [...configDefaults.exclude, 'test/package/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // two cores: integration tests start servers; a few files at a time keeps them honest
    maxWorkers: 2,
    minWorkers: 1,
    // files share their worker's loaded modules, one file after another, instead of loading intrabot's
    // modules again for every file, which took as long as the tests themselves (api and webhooks: 145 s
    // to 50 s). So a test file closes every server, store, child and timer it starts, and changes no
    // global it does not put back.
    pool: 'threads',
    isolate: false,
  },
});

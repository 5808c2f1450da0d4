import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'bots/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // two cores: integration tests start servers; a few files at a time keeps them honest
    maxWorkers: 2,
    minWorkers: 1,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    setupFiles: ['test/setup/isolated-state.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real server processes; two cores are shared by forks.
    pool: 'forks',
    maxWorkers: 2,
  },
});

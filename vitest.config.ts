import { defineConfig } from 'vitest/config';

/**
 * Test files that need a process of their own: those that replace modules with `vi.mock`, and those that measure
 * the process's memory growth (in a shared worker, what earlier files left behind counts against them).
 */
const needsOwnModules = [
  'test/consent/first-sight-cost.test.ts',
  'test/faults/fuzz-frames.test.ts',
  'test/faults/huge-line.test.ts',
  'test/faults/notification-flood.test.ts',
  'test/faults/http-response-size.test.ts',
];

export default defineConfig({
  test: {
    setupFiles: ['test/setup/isolated-state.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real server processes; two cores are shared by forks.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: needsOwnModules,
          // Files share a worker's loaded modules: importing the SDKs once instead of once per file is most of
          // the suite's CPU time. Per-file state (home, state folder) is reset by the setup file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own-modules', include: needsOwnModules, isolate: true },
      },
    ],
  },
});

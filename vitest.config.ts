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
    // Tests spawn real server processes and spend much of their time waiting on them (a handshake, a timeout, a
    // browser): on two cores, three forks keep both busy where two left them idle about a third of the time (a full
    // run used 1.2 cores with two forks; with three it took 575 s instead of 699 s on the same busy machine).
    pool: 'forks',
    maxWorkers: 3,
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

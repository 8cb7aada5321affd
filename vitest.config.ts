import { defineConfig } from "vitest/config";

/**
 * Two projects: `quick` (`npm test`) and `slow` (training runs, kill-and-resume runs, the
 * family-wide property suite). `npm run test:all`, which CI runs, runs both.
 */
const SLOW = [
  "tests/train/es.test.ts",
  "tests/train/train.test.ts",
  "tests/train/scorer.test.ts",
  "tests/train/algos-cli.test.ts",
  "tests/experiments/merge-resume.test.ts",
  "tests/experiments/atlas-slurm.test.ts",
  "tests/engine/property-family.test.ts",
];
const shared = {
  testTimeout: 120_000,
  hookTimeout: 120_000,
  pool: "forks" as const,
  // Commands write a progress line every 10 s; on a loaded machine a short run could pass 10 s and
  // print one where a test compares stderr exactly. Tests of the progress lines set their own.
  env: { PENGUIN_PROGRESS_SECONDS: "3600" },
};

export default defineConfig({
  test: {
    globalSetup: ["tests/setup/build.ts"],
    projects: [
      { test: { ...shared, name: "quick", include: ["tests/**/*.test.ts"], exclude: SLOW } },
      { test: { ...shared, name: "slow", include: SLOW } },
    ],
  },
});

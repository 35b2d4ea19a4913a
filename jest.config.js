// Three projects so CI can run the fast suites first and the slow ones separately:
//   unit   - the suites that mirror the source (tests/<path>/<file>.test.ts) and tests/package (npm test)
//   faults - fault injection, bad input and secrets (npm run test:faults)
//   e2e    - the real Pulumi CLI against the simulator (npm run test:e2e)
const tsJest = ["ts-jest", { tsconfig: "tsconfig.test.json" }];
const common = {
  testEnvironment: "node",
  transform: { "^.+\\.ts$": tsJest },
  moduleFileExtensions: ["ts", "js", "json"],
  // A limiter state directory per test file (see the file).
  setupFiles: ["<rootDir>/tests/helpers/isolatedLimiterState.ts"],
  // The generated native SDKs (and their build) are packages of their own, not modules of ours.
  modulePathIgnorePatterns: ["<rootDir>/sdks/"],
};
module.exports = {
  // One root per run for the per-file limiter state directories (tests/helpers/limiterStateRoot.ts).
  globalSetup: "<rootDir>/tests/helpers/limiterStateSetup.ts",
  globalTeardown: "<rootDir>/tests/helpers/limiterStateTeardown.ts",
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/tests/**/*.test.ts"],
      testPathIgnorePatterns: ["<rootDir>/tests/faults/", "<rootDir>/tests/e2e/"],
    },
    { ...common, displayName: "faults", testMatch: ["<rootDir>/tests/faults/**/*.test.ts"] },
    { ...common, displayName: "e2e", testMatch: ["<rootDir>/tests/e2e/**/*.test.ts"] },
  ],
};

// Three projects: unit tests beside the code, integration tests per service against the
// real PostgreSQL and RabbitMQ, end-to-end tests across the three built services.
// ts-jest in transpile-only mode: fast, and pure JavaScript (no per-platform native
// binaries, which `npm ci` cannot lock where the registry serves only one platform).
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', isolatedModules: true, diagnostics: false }];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@app/contracts(|/.*)$': '<rootDir>/libs/contracts/src$1',
    '^@app/common(|/.*)$': '<rootDir>/libs/common/src$1',
  },
};

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  // Per-project testTimeout is ignored by Jest 29; integration and e2e steps need more than 5 s.
  testTimeout: 60_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/apps/**/src/**/*.spec.ts', '<rootDir>/libs/**/src/**/*.spec.ts', '<rootDir>/test/support/**/*.spec.ts', '<rootDir>/test/deploy/**/*.spec.ts', '<rootDir>/bench/**/*.spec.js'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/apps/*/test/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    // The web console in Chromium (Debian's package, driven by playwright-core) against the built system.
    { ...shared, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'] },
  ],
};

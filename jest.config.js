// Three projects: unit tests beside the code, integration tests per service against the
// real PostgreSQL and RabbitMQ, end-to-end tests across the three built services.
const swc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
}];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
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
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/apps/**/src/**/*.spec.ts', '<rootDir>/libs/**/src/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/apps/*/test/**/*.int-spec.ts'], testTimeout: 60_000 },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], testTimeout: 120_000 },
  ],
};

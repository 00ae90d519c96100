/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': swc,
    // A CommonJS package that require()s the ES-module Nest: see test/setup/nest-esm-for-cjs.transform.mjs.
    '/node_modules/@nestjs/throttler/.+\\.js$': '<rootDir>/test/setup/nest-esm-for-cjs.transform.mjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/throttler/)'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/nest-esm-for-cjs.setup.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker that has grown past this after a test file is replaced: the long run once ran one out of memory.
  workerIdleMemoryLimit: '1GB',
  // Each e2e file boots its own app on its own database; a slow shared machine needs room.
  slowTestThreshold: 20,
};

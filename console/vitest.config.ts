import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// The console's unit and component tests: the console's own Vite configuration (same root and
// transforms), in jsdom. Only `*.test.ts(x)` under console/src: jest owns src/ and test/ (`*.spec.ts`).
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/testing/setup.ts'],
      // The same machine runs the service's suite: two workers at most.
      maxWorkers: 2,
    },
  }),
);

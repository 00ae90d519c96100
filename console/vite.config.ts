import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served by the service itself at /console/ (see src/console/serve-console.ts), so it
// is built into dist/ beside the service and needs no CORS: every request goes to the same origin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Helmet's CSP allows no inline script: Vite's module preload polyfill is bundled, never inlined.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
    reportCompressedSize: false,
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; a plain SPA has none.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

// See nest-esm-for-cjs.transform.mjs: the Nest modules that @nestjs/throttler's require() calls get under Jest.
// Only the files that boot the application need them (e2e): importing Nest costs a unit test file seconds.
if (expect.getState().testPath?.endsWith('.e2e-spec.ts')) {
  const [common, core] = await Promise.all([import('@nestjs/common'), import('@nestjs/core')]);
  (globalThis as { __nestEsmForCjs?: Record<string, unknown> }).__nestEsmForCjs = { '@nestjs/common': common, '@nestjs/core': core };
}

export {};

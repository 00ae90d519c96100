// See nest-esm-for-cjs.transform.mjs: the Nest modules that @nestjs/throttler's require() calls get under Jest.
// Only the files that boot Nest need them (e2e, integration): importing Nest costs a unit test file seconds.
if (/\.(e2e|int)-spec\.ts$/.test(expect.getState().testPath ?? '')) {
  const [common, core] = await Promise.all([import('@nestjs/common'), import('@nestjs/core')]);
  (globalThis as { __nestEsmForCjs?: Record<string, unknown> }).__nestEsmForCjs = { '@nestjs/common': common, '@nestjs/core': core };
}

export {};

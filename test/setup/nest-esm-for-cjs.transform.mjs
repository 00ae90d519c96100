// @nestjs/throttler is CommonJS and require()s @nestjs/common and @nestjs/core, which are ES modules
// since Nest 12. Node (20.19+) loads them that way; Jest's module loader cannot require() an ES module
// before Node 24.9. For Jest only, this transform points those two require() calls at the very module
// instances the code under test imports, which nest-esm-for-cjs.setup.ts registers before each e2e
// and integration test file. Nothing else in the package changes. Remove both files once the
// supported floor is Node 24.9.
import { createHash } from 'node:crypto';

const NEST_REQUIRE = /\brequire\("(@nestjs\/(?:common|core))"\)/g;
const MISSING = '@nestjs/throttler under Jest needs test/setup/nest-esm-for-cjs.setup.ts to register Nest for this test file';

export default {
  process(source) {
    const registered = (name) =>
      `(globalThis.__nestEsmForCjs ?? (() => { throw new Error(${JSON.stringify(MISSING)}); })())[${JSON.stringify(name)}]`;
    return { code: source.replace(NEST_REQUIRE, (_call, name) => registered(name)) };
  },
  getCacheKey(source, path) {
    return createHash('sha256').update('nest-esm-for-cjs-2').update(path).update(source).digest('hex');
  },
};

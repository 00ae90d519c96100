import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { AppModule } from '../../src/app.module.js';
import { ERROR_FAMILY_METADATA, ErrorFamily, ErrorFamilyRoutes } from '../../src/common/errors/error-families.js';
import { controllersOf } from '../../src/common/http/module-controllers.js';

function controllerFiles(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

// forRoot only builds the module graph: nothing connects or starts here. Built once (TypeORM warns on a second root).
const APP_CONTROLLERS = controllersOf(AppModule.forRoot({ config: {} as never, databaseUrl: 'unused', logger: {} as never }));
const APP_FAMILIES = ErrorFamilyRoutes.of(APP_CONTROLLERS);

describe('error families', () => {
  let controllers: Array<{ file: string; type: object; name: string; family: unknown }>;

  beforeAll(async () => {
    controllers = [];
    for (const file of controllerFiles()) {
      const exports = (await import(join(process.cwd(), file))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        if (typeof value === 'function' && Reflect.getMetadata(PATH_METADATA, value) !== undefined) {
          controllers.push({ file, type: value, name: value.name, family: Reflect.getMetadata(ERROR_FAMILY_METADATA, value) });
        }
      }
    }
  });

  it('every controller says its family once, with @ErrorBodies', () => {
    expect(controllers.length).toBeGreaterThanOrEqual(14);
    expect(controllers.filter((controller) => controller.family === undefined).map((controller) => controller.name)).toEqual([]);
  });

  it('the app reads the families from every controller file, through its modules', () => {
    const found = new Set<object>(APP_CONTROLLERS);
    expect(controllers.filter((controller) => !found.has(controller.type)).map((controller) => controller.name)).toEqual([]);
  });

  it.each([
    ['/api/v3/channels-stores', ErrorFamily.ChannelConfiguration],
    ['/api/domain-cliente/token', ErrorFamily.OAuth],
    ['/api/domain-cliente/webhook/new-order', ErrorFamily.OAuth],
    ['/api/api/order/status', ErrorFamily.PointOfSale],
    // Unmatched URLs below a controller's path take its family (a 404 in the route's own shape).
    ['/api/api/order/no-such-route?x=1', ErrorFamily.PointOfSale],
    ['/api/API/Order/Status', ErrorFamily.PointOfSale],
    // Read as the router reads it: escaped letters decoded, an escaped slash kept inside its segment,
    // a malformed escape left as it came.
    ['/api/v3/channels-%73tores', ErrorFamily.ChannelConfiguration],
    ['/api/domain-%63liente/webhook/new-order', ErrorFamily.OAuth],
    ['/api/api/%6Frder/no-such-route', ErrorFamily.PointOfSale],
    ['/api/api%2Forder/status', ErrorFamily.AdminApi],
    ['/api/api/order/%E0%A4%A', ErrorFamily.PointOfSale],
    ['/api/admin/orders/123', ErrorFamily.AdminApi],
    ['/api/enrich-order', ErrorFamily.AdminApi],
    ['/api/nowhere', ErrorFamily.AdminApi],
    ['/', ErrorFamily.AdminApi],
  ])('%s is answered in the %s family', (url, family) => {
    expect(APP_FAMILIES.familyOf(url)).toBe(family);
  });

  it('refuses two families for one controller path', () => {
    class First {}
    class Second {}
    for (const [type, family] of [
      [First, ErrorFamily.AdminApi],
      [Second, ErrorFamily.PointOfSale],
    ] as const) {
      Reflect.defineMetadata(PATH_METADATA, 'same/path', type);
      Reflect.defineMetadata(ERROR_FAMILY_METADATA, family, type);
    }
    expect(() => ErrorFamilyRoutes.of([First, Second])).toThrow(/two error families/);
  });
});

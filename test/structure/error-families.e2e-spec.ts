import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { errorFamilyOf } from '../../src/common/errors/error-families.js';
import { ERROR_FAMILY } from '../../src/common/http/error-family.decorator.js';

function controllerFiles(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

describe('error families', () => {
  let controllers: Array<{ file: string; name: string; family: unknown }>;

  beforeAll(async () => {
    controllers = [];
    for (const file of controllerFiles()) {
      const exports = (await import(join(process.cwd(), file))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        if (typeof value === 'function' && Reflect.getMetadata(PATH_METADATA, value) !== undefined) {
          controllers.push({ file, name: value.name, family: Reflect.getMetadata(ERROR_FAMILY, value) });
        }
      }
    }
  });

  it('every controller says its family once, with @ErrorFamily', () => {
    expect(controllers.length).toBeGreaterThanOrEqual(14);
    expect(controllers.filter((controller) => controller.family === undefined).map((controller) => controller.name)).toEqual([]);
  });

  it.each([
    ['/api/v3/channels-stores', 'B'],
    ['/api/domain-cliente/token', 'C'],
    ['/api/domain-cliente/webhook/new-order', 'C'],
    ['/api/api/order/status', 'D'],
    // Unmatched URLs below a controller's path take its family (a 404 in the route's own shape).
    ['/api/api/order/no-such-route?x=1', 'D'],
    ['/api/API/Order/Status', 'D'],
    ['/api/admin/orders/123', 'A'],
    ['/api/enrich-order', 'A'],
    ['/api/nowhere', 'A'],
    ['/', 'A'],
  ])('%s is answered in family %s', (url, family) => {
    expect(errorFamilyOf(url)).toBe(family);
  });
});

import type { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants.js';

type ModuleRef = Type | DynamicModule | ForwardReference | Promise<DynamicModule>;

/**
 * The controller classes of a module and of everything it imports, read from their `@Module`
 * metadata without building the app: the error families must be known before the HTTP server
 * exists (Node's parser refuses some requests before Nest sees them).
 */
export function controllersOf(root: ModuleRef): Type[] {
  const seen = new Set<object>();
  const controllers = new Set<Type>();
  const visit = (ref: ModuleRef | undefined): void => {
    if (ref === undefined || ref instanceof Promise) {
      if (ref) throw new Error('controllersOf cannot read a module imported as a Promise');
      return;
    }
    if ('forwardRef' in ref) return visit(ref.forwardRef() as ModuleRef);
    if (seen.has(ref)) return;
    seen.add(ref);
    const dynamic = 'module' in ref ? ref : undefined;
    const type = dynamic ? dynamic.module : (ref as Type);
    const declared = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) as Type[] | undefined) ?? [];
    for (const controller of [...declared, ...(dynamic?.controllers ?? [])]) controllers.add(controller);
    const imports = (Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) as ModuleRef[] | undefined) ?? [];
    for (const imported of [...imports, ...((dynamic?.imports ?? []) as ModuleRef[])]) visit(imported);
  };
  visit(root);
  return [...controllers];
}

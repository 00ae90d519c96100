import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import pluginMetadata from './plugin-metadata.js';

/*
 * The Swagger CLI plugin metadata of the DTO classes (`plugin-metadata.ts`, generated from the
 * sources by `npm run openapi:metadata`), applied to the classes as the compiler plugin would.
 */

/** Where `SwaggerModule.loadPluginMetadata` puts a class's metadata (`@nestjs/swagger/dist/plugin/plugin-constants`). */
const METADATA_FACTORY = '_OPENAPI_METADATA_FACTORY';
/** Where `@ApiProperty` keeps a property's options (`DECORATORS.API_MODEL_PROPERTIES` of `@nestjs/swagger/dist/constants`). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

type DtoClass = (abstract new (...args: never[]) => object) & Record<string, unknown>;
interface PluginModel {
  name: string;
  dto: DtoClass;
  properties: Record<string, { type?: unknown }>;
}

async function pluginModels(): Promise<PluginModel[]> {
  const { models } = (await pluginMetadata())['@nestjs/swagger'];
  const loaded: PluginModel[] = [];
  for (const [load, classes] of models) {
    const module = (await load) as unknown as Record<string, DtoClass>;
    for (const [name, properties] of Object.entries(classes)) loaded.push({ name, dto: module[name]!, properties });
  }
  return loaded;
}

let loading: Promise<void> | undefined;

/** Gives the DTO classes their plugin metadata (once). */
export function loadDtoMetadata(): Promise<void> {
  loading ??= (async () => {
    await SwaggerModule.loadPluginMetadata(pluginMetadata);
    await typeDecoratedPropertiesFromSource();
  })();
  return loading;
}

/**
 * An `@ApiProperty` without `type` takes the type TypeScript reflects, which is only `Object` for
 * `string | null` or a union of literals, and `Array` for `ItemDto[]` (and swc, which the tests
 * compile with, reflects `Object` for any imported type alias). The compiler plugin gives such a
 * decorator the type it reads in the source; here the reflected `Object` or `Array` is dropped, so
 * that the plugin's type (or enum) applies when Swagger reads the metadata.
 */
async function typeDecoratedPropertiesFromSource(): Promise<void> {
  for (const { dto, properties } of await pluginModels()) {
    for (const key of Object.keys(properties)) {
      const described = Reflect.getOwnMetadata(API_MODEL_PROPERTIES, dto.prototype, key) as Record<string, unknown> | undefined;
      const reflected: unknown = Reflect.getMetadata('design:type', dto.prototype, key);
      if (described && (reflected === Object || reflected === Array) && described.type === reflected) {
        const { type: _reflected, ...options } = described;
        Reflect.defineMetadata(API_MODEL_PROPERTIES, options, dto.prototype, key);
      }
    }
  }
}

/**
 * Swagger lists first the properties that carry an `@ApiProperty`, then those it knows from the
 * plugin metadata alone. Every DTO schema lists its properties (and `required`) in the order its
 * class and the classes it extends declare them, whichever way each property is described.
 */
export async function listPropertiesInDeclarationOrder(document: OpenAPIObject): Promise<void> {
  for (const { name, dto } of await pluginModels()) {
    const schema = document.components?.schemas?.[name] as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (!schema?.properties) continue;
    const declared = declaredProperties(dto);
    const rank = (property: string) => (declared.includes(property) ? declared.indexOf(property) : declared.length);
    schema.properties = Object.fromEntries(Object.entries(schema.properties).sort(([a], [b]) => rank(a) - rank(b)));
    schema.required?.sort((a, b) => rank(a) - rank(b));
  }
}

/** The property names of a DTO class in declaration order, inherited ones first. */
function declaredProperties(dto: DtoClass): string[] {
  const chain: Array<Record<string, unknown>> = [];
  for (
    let current: unknown = dto;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current as unknown as Record<string, unknown>);
  }
  return [
    ...new Set(
      chain.flatMap((type) => (Object.hasOwn(type, METADATA_FACTORY) ? Object.keys((type[METADATA_FACTORY] as () => object)()) : [])),
    ),
  ];
}

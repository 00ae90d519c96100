import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';
import type { ErrorDetail } from '../errors/api-error.js';

type Check = (value: unknown, object: Record<string, unknown>) => string | undefined;
interface PropertyRules {
  name: string;
  /** `@IsOptional()` / `@ValidateIf()`: the checks run only when this holds. */
  conditions: Array<(object: Record<string, unknown>, value: unknown) => boolean>;
  checks: Check[];
}

/**
 * The class-validator rules of a flat DTO (no nested objects), read once from its decorators and
 * run without class-validator's cost per object (ten times the checks themselves): the checks of
 * each decorator, in class-validator's order, with its messages, as `validate(dto, {
 * stopAtFirstError: true })` would find them. For data validated object by object in bulk (the
 * rules of a tax matrix CSV). A decorator it cannot run (nested, `each`, async) is refused here.
 */
export function compileFlatDtoRules(dto: abstract new () => object): (object: Record<string, unknown>, path: string) => ErrorDetail[] {
  const storage = getMetadataStorage();
  const properties = new Map<string, PropertyRules>();
  for (const metadata of storage.getTargetValidationMetadatas(dto as new () => object, '', true, false)) {
    const property = properties.get(metadata.propertyName) ?? { name: metadata.propertyName, conditions: [], checks: [] };
    properties.set(metadata.propertyName, property);
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      property.conditions.push(metadata.constraints[0] as PropertyRules['conditions'][number]);
      continue;
    }
    if ((metadata.type !== ValidationTypes.CUSTOM_VALIDATION && metadata.type !== ValidationTypes.IS_DEFINED) || metadata.each) {
      throw new Error(`${dto.name}.${metadata.propertyName}: ${metadata.type} is not a flat check`);
    }
    for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
      if (constraint.async) throw new Error(`${dto.name}.${metadata.propertyName}: ${constraint.name} is asynchronous`);
      // One arguments object per check, refilled on each call (the checks do not keep it).
      const args: ValidationArguments = {
        value: undefined,
        object: {},
        property: metadata.propertyName,
        targetName: dto.name,
        constraints: metadata.constraints,
      };
      const check: Check = (value, object) => {
        args.value = value;
        args.object = object;
        if (constraint.instance.validate(value, args)) return undefined;
        const message =
          typeof metadata.message === 'function'
            ? metadata.message(args)
            : (metadata.message ?? constraint.instance.defaultMessage?.(args) ?? '');
        return inWords(message, args);
      };
      // class-validator runs `@IsDefined()` before the other checks of a property.
      if (metadata.type === ValidationTypes.IS_DEFINED) property.checks.unshift(check);
      else property.checks.push(check);
    }
  }
  const rules = [...properties.values()];
  return (object, path) => {
    const problems: ErrorDetail[] = [];
    for (const { name, conditions, checks } of rules) {
      const value = object[name];
      if (!conditions.every((condition) => condition(object, value))) continue;
      for (const check of checks) {
        const problem = check(value, object);
        if (problem !== undefined) {
          problems.push({ field: `${path}.${name}`, problem });
          break;
        }
      }
    }
    return problems;
  };
}

/** A message as class-validator writes it (`$property`, `$value`, `$constraintN` replaced) and `flattenValidationErrors` reports it. */
function inWords(message: string, args: ValidationArguments): string {
  const text = message
    .replaceAll('$property', args.property)
    .replaceAll('$value', String(args.value))
    .replace(/\$constraint(\d+)/g, (_token, index: string) => String(args.constraints?.[Number(index) - 1]));
  return text.startsWith(`${args.property} `) ? text.slice(args.property.length + 1) : text;
}

import { createParamDecorator, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError, type ErrorDetail } from '../errors/api-error.js';
import { flattenValidationErrors, refusePrototypeNamedKey, requireObjectBody, type FlattenOptions } from './validation.js';

export interface DtoValidationOptions extends FlattenOptions {
  /**
   * Checks that class-validator cannot express (a map keyed by NCM code, references and
   * duplicates across the items of a list, which name the item they are about), run on the
   * plain value; their problems come back in the same 400 as the DTO's own.
   */
  extraChecks?: (plain: Record<string, unknown>) => ErrorDetail[];
  /**
   * Each property reports its first problem only. class-validator checks the decorators of a
   * property from the bottom up, so the DTO writes the type check last.
   */
  firstProblemOnly?: boolean;
  /** Properties the DTO does not declare are refused (400), at every depth. */
  closed?: boolean;
}

/**
 * `plain` as an instance of `dto`, and every problem found: class-validator's (nested ones
 * included) and the extra checks'. The one validation of request bodies: the pipes below,
 * the open bodies of `open-body.ts` and services that validate after authenticating use it.
 */
export async function validateDto<T extends object>(
  dto: ClassConstructor<T>,
  plain: Record<string, unknown>,
  options: DtoValidationOptions = {},
): Promise<{ instance: T; details: ErrorDetail[] }> {
  const instance = plainToInstance(dto, plain, { enableImplicitConversion: false });
  const errors = await validate(instance, {
    whitelist: options.closed ?? false,
    forbidNonWhitelisted: options.closed ?? false,
    forbidUnknownValues: true,
    stopAtFirstError: options.firstProblemOnly ?? false,
  });
  return { instance, details: [...flattenValidationErrors(errors, options), ...(options.extraChecks?.(plain) ?? [])] };
}

/**
 * Validates a body against a DTO class like the global pipe does, plus checks that
 * class-validator cannot express (e.g. a map keyed by NCM code), and answers one 400
 * listing every problem. Use with a body parameter typed `unknown` so that the
 * global pipe leaves it alone: `@Body(new DtoValidationPipe(Dto, extraChecks))`.
 */
export class DtoValidationPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly dto: ClassConstructor<T>,
    private readonly extraChecks: (plain: Record<string, unknown>) => ErrorDetail[] = () => [],
  ) {}

  async transform(value: unknown): Promise<T> {
    requireObjectBody(value);
    refusePrototypeNamedKey(value);
    const { instance, details } = await validateDto(this.dto, value, { closed: true, extraChecks: this.extraChecks });
    if (details.length > 0) throw ApiError.validation(details);
    return instance;
  }
}

const rawBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ body: unknown }>().body,
);

/**
 * The request body validated by `DtoValidationPipe`. A custom parameter decorator, so the
 * global pipe (which would stop at the DTO's own errors) leaves it to this one.
 */
export function ValidatedBody<T extends object>(dto: ClassConstructor<T>, extraChecks?: (plain: Record<string, unknown>) => ErrorDetail[]) {
  return rawBody(new DtoValidationPipe(dto, extraChecks));
}

/** The request body as sent, for pipes of this folder. */
export const requestBody = rawBody;

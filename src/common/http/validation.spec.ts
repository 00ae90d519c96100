import { jest } from '@jest/globals';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { createValidationPipe, KeepPassingQueries } from './validation.js';

@KeepPassingQueries()
class KeptQuery {
  @IsOptional()
  @IsIn(['rappi', '99food'])
  profile?: string;

  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  dryRun?: boolean;
}

/** Not marked: what a person types could be in it. */
class SearchQuery {
  @IsOptional()
  @IsString()
  q?: string;
}

@KeepPassingQueries()
class QueryWithObject {
  @IsOptional()
  @Transform(({ value }) => ({ wrapped: value }))
  filter?: { wrapped: unknown };
}

const query = (metatype: new () => object): ArgumentMetadata => ({ type: 'query', metatype });

describe('the global pipe on queries', () => {
  afterEach(() => jest.restoreAllMocks());

  /** The pipe's validations (class-validator runs), counted through ValidationPipe's own step. */
  function countValidations() {
    return jest.spyOn(ValidationPipe.prototype as unknown as { validate: (...args: unknown[]) => unknown }, 'validate');
  }

  it('validates a passing query of a marked DTO once, then answers a new instance holding the same values', async () => {
    const pipe = createValidationPipe();
    const validations = countValidations();
    const first = await pipe.transform({ profile: 'rappi', dryRun: 'true' }, query(KeptQuery));
    const second = await pipe.transform({ profile: 'rappi', dryRun: 'true' }, query(KeptQuery));
    expect(validations).toHaveBeenCalledTimes(1);
    expect(second).toBeInstanceOf(KeptQuery);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect({ ...(second as object) }).toEqual({ profile: 'rappi', dryRun: true });
    // Another query of the same DTO is validated on its own.
    expect(await pipe.transform({ profile: '99food' }, query(KeptQuery))).toMatchObject({ profile: '99food' });
    expect(validations).toHaveBeenCalledTimes(2);
  });

  it('refuses a failing query every time with the same 400, never keeping it', async () => {
    const pipe = createValidationPipe();
    const validations = countValidations();
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await pipe.transform({ profile: 'uber' }, query(KeptQuery)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, details: [{ field: 'profile' }] });
    }
    expect(validations).toHaveBeenCalledTimes(2);
  });

  it('keeps no query of an unmarked DTO but the empty one', async () => {
    const pipe = createValidationPipe();
    const validations = countValidations();
    await pipe.transform({ q: 'ana.souza@example.com' }, query(SearchQuery));
    await pipe.transform({ q: 'ana.souza@example.com' }, query(SearchQuery));
    expect(validations).toHaveBeenCalledTimes(2);
    expect(await pipe.transform({}, query(SearchQuery))).toBeInstanceOf(SearchQuery);
    expect(await pipe.transform({}, query(SearchQuery))).toBeInstanceOf(SearchQuery);
    expect(validations).toHaveBeenCalledTimes(3);
  });

  it('keeps no result holding an object, which requests would otherwise share', async () => {
    const pipe = createValidationPipe();
    const validations = countValidations();
    const first = (await pipe.transform({ filter: 'x' }, query(QueryWithObject))) as QueryWithObject;
    const second = (await pipe.transform({ filter: 'x' }, query(QueryWithObject))) as QueryWithObject;
    expect(validations).toHaveBeenCalledTimes(2);
    expect(second.filter).toEqual({ wrapped: 'x' });
    expect(second.filter).not.toBe(first.filter);
  });
});

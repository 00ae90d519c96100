import { ApiError } from './api-error.js';
import { DomainErrorCode } from './error-codes.js';
import { ErrorFamily, renderErrorBody } from './error-families.js';

describe('renderErrorBody of a domain failure', () => {
  const detail = { field: 'stores', problem: 'store "s1" already belongs to fiscal group g1 ("G")', storeId: 's1', fiscalGroupId: 'g1' };
  const error = ApiError.domain(DomainErrorCode.STORE_IN_ANOTHER_GROUP, detail.problem, [detail]);

  it.each([
    [ErrorFamily.AdminApi, { message: detail.problem, error: 'STORE_IN_ANOTHER_GROUP', details: [detail] }],
    [ErrorFamily.ChannelConfiguration, { statusCode: '409', message: detail.problem }],
    // A conflict on the OAuth routes is the request's fault: invalid_request, as CONFLICT is.
    [ErrorFamily.OAuth, { error: 'invalid_request', error_description: detail.problem }],
    // The published body, the same sentence in both, with the code and details added.
    [ErrorFamily.PointOfSale, { error: detail.problem, message: detail.problem, code: 'STORE_IN_ANOTHER_GROUP', details: [detail] }],
  ])('in the %s family is %j', (family, body) => {
    expect(error.status).toBe(409);
    expect(renderErrorBody(family, error)).toEqual(body);
  });

  it('keeps the point-of-sale body of a failure without a domain code as it is published: the sentence only', () => {
    for (const error of [
      ApiError.notFound('Order ghost not found'),
      ApiError.badRequest('order_id is required', 'order_id'),
      ApiError.unauthorized(),
    ]) {
      expect(renderErrorBody(ErrorFamily.PointOfSale, error)).toEqual({ error: error.message, message: error.message });
    }
  });

  it('keeps the OAuth code of each status', () => {
    expect(renderErrorBody(ErrorFamily.OAuth, ApiError.unavailable())).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'The database is unavailable; try again shortly',
    });
    expect(renderErrorBody(ErrorFamily.OAuth, ApiError.notFound('No such thing')).error).toBe('not_found');
    expect(renderErrorBody(ErrorFamily.OAuth, ApiError.forbidden('No')).error).toBe('insufficient_scope');
  });
});

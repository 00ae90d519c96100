import { ApiError, describeDetails } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import { isPlainObject } from '../../common/plain-object.js';
import { SourcePaths, type MappedDocument } from '../profiles/mapped-document.js';
import { mapOpenDeliveryDocument } from './open-delivery-order.js';

/** The document's paths of an order Keeta wrapped: under `data`. */
class WrappedSourcePaths extends SourcePaths {
  constructor(
    private readonly inner: SourcePaths,
    private readonly prefix: string,
  ) {
    super();
  }

  override sourceOf(mappedPath: string): string {
    return `${this.prefix}${this.inner.sourceOf(mappedPath)}`;
  }
}

/** An error about the unwrapped order, with its paths under the wrapper's `data`. */
function underData(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.details?.length) return error;
  const details = error.details.map((detail) => ({ ...detail, field: `data.${detail.field}` }));
  const message =
    error.code === ErrorCode.VALIDATION_FAILED && error.message === describeDetails(error.details)
      ? describeDetails(details)
      : error.message;
  return new ApiError(error.code, message, { ...error.options, details });
}

/**
 * Keeta's order: Open Delivery's order, sent bare or wrapped in Keeta's `{code, message, data}`. Paths of a
 * wrapped order's errors start with `data.`; `sourceOrder` keeps the order itself.
 */
export function mapKeetaDocument(body: unknown): MappedDocument {
  const wrapped = isPlainObject(body) && 'data' in body && ('code' in body || 'message' in body);
  if (!wrapped) return mapOpenDeliveryDocument(body, 'keeta', 'Keeta');
  try {
    const mapped = mapOpenDeliveryDocument(body.data, 'keeta', 'Keeta');
    return { order: mapped.order, sourcePaths: new WrappedSourcePaths(mapped.sourcePaths, 'data.') };
  } catch (error) {
    throw underData(error);
  }
}

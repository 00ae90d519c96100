import { ApiError, describeDetails, type ErrorDetail } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import type { IntakeWarningCode, TaxWarning } from '../../tax-engine/tax-engine.js';

/**
 * What every marketplace profile (`?profile=`) shares: a document in the marketplace's own shape is read
 * into the service's order, and it is answered in its own words. Problems and warnings name paths of the
 * document sent (`benefits[0].targetId`), and an error found later, on the mapped order, is translated
 * back to the document's path through the `SourcePaths` the mapping recorded. See docs/ifood-profile.md.
 */

/** A profile's mapping: the service's order, and where its parts came from in the document sent. */
export interface MappedDocument {
  order: Record<string, unknown>;
  sourcePaths: SourcePaths;
}

/** Problems of a document that cannot be read as an order, at paths of that document (a 400 lists them all). */
export class DocumentProblems {
  readonly list: ErrorDetail[] = [];

  add(field: string, problem: string): void {
    this.list.push({ field, problem });
  }

  get count(): number {
    return this.list.length;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw ApiError.validation(this.list);
  }
}

/**
 * Inconsistencies of a document that are applied anyway, as warnings of the taxed order. Their path is
 * the document's, under `sourceOrder` where the mapped order keeps it.
 */
export class IntakeWarnings {
  readonly list: TaxWarning[] = [];

  add(code: IntakeWarningCode, sourcePath: string, message: string): void {
    this.list.push({ code, path: `sourceOrder.${sourcePath}`, message });
  }
}

/**
 * Free text of the document cut to the length the service's order takes (a campaign's name may be longer than
 * a discount's description): a marketplace's long text is never a reason to refuse its order. A cut text
 * ends with "…" and never splits a character made of two UTF-16 units.
 */
export function fitText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let kept = text.slice(0, maxLength - 1);
  const last = kept.charCodeAt(kept.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  return `${kept}…`;
}

/**
 * The document's path of each part of the mapped order. A part is recorded with its prefix in the mapped
 * order and in the document, plus the fields renamed on the way (`amount` of a discount is the `value` of its
 * sponsorship); a path below a recorded part keeps its rest. A path no part covers is answered as it is.
 */
export class SourcePaths {
  private readonly parts = new Map<string, { source: string; fields?: Record<string, string> }>();

  /** `fields`: a field of the mapped part → the document's path of what it was read from. */
  record(mappedPrefix: string, sourcePrefix: string, fields?: Record<string, string>): void {
    this.parts.set(mappedPrefix, fields ? { source: sourcePrefix, fields } : { source: sourcePrefix });
  }

  /** The document's path for a path of the mapped order: the longest recorded prefix ending at a segment. */
  sourceOf(mappedPath: string): string {
    for (let end = mappedPath.length; end > 0; end = lastSegmentEnd(mappedPath, end)) {
      const part = this.parts.get(mappedPath.slice(0, end));
      if (part === undefined) continue;
      const rest = mappedPath.slice(end);
      if (rest === '') return part.source;
      if (part.fields && rest.startsWith('.')) {
        const field = Object.keys(part.fields).find((name) => rest === `.${name}` || rest.startsWith(`.${name}.`));
        if (field !== undefined) return `${part.fields[field]}${rest.slice(field.length + 1)}`;
      }
      return `${part.source}${rest}`;
    }
    return mappedPath;
  }

  /** The error with each detail's `field` in the document's words; a validation sentence built from them follows. */
  translated(error: ApiError): ApiError {
    const details = error.details;
    if (!details || details.length === 0) return error;
    const translated = details.map((detail) => ({ ...detail, field: this.sourceOf(detail.field) }));
    const message =
      error.code === ErrorCode.VALIDATION_FAILED && error.message === describeDetails(details)
        ? describeDetails(translated)
        : error.message;
    return new ApiError(error.code, message, { ...error.options, details: translated });
  }
}

/** Where the path's last segment starts (`a.b[2]` → before `[2]`), or 0. */
function lastSegmentEnd(path: string, end: number): number {
  for (let index = end - 1; index > 0; index--) {
    const char = path[index];
    if (char === '.' || char === '[') return index;
  }
  return 0;
}

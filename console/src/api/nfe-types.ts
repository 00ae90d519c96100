/**
 * The invoice items' route, typed by hand from the agreed API until `openapi.json` describes it;
 * then `npm run client:generate` gives it in `schema.d.ts` and this module goes (the client's
 * `paths` stop being intersected with `NfePaths`).
 *
 * The answer carries the NF-e's own element names, each value the schema's text ("10.00",
 * "18.0000"), a group as an object: `det[].imposto.ICMS.ICMS00.vICMS`.
 */
export type NfeModel = '65' | '55';
export type NfeFreightAs = 'vFrete' | 'vOutro';

/** A group of the schema: element name to its text, or to a nested group. */
export interface NfeGroup {
  [element: string]: string | number | NfeGroup | undefined;
}

export interface NfeDet {
  /** The item's number (1, 2…), the `det` element's attribute `nItem`, named with `@` as attributes are. */
  '@nItem': string;
  prod: NfeGroup;
  imposto: NfeGroup;
}

export interface NfeItemsDto {
  orderId: string;
  model: NfeModel | 55 | 65;
  crt: string | number;
  layout: string;
  det: NfeDet[];
  total: { ICMSTot: NfeGroup; IBSCBSTot?: NfeGroup };
}

/** One cause an order cannot be printed: the item's path in the order, and the code that names why. */
export interface NfeProblemDetail {
  field?: string;
  problem?: string;
  code?: string;
  [typed: string]: unknown;
}

interface NfeErrorDto {
  error?: string;
  code?: string;
  message: string;
  details?: NfeProblemDetail[];
}

type Headers = { [name: string]: unknown };
type Errors = { [S in 400 | 401 | 403 | 404 | 422]: { headers: Headers; content: { 'application/json': NfeErrorDto } } };

export interface NfePaths {
  '/api/orders/{orderId}/nfe': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: {
        query?: { model?: NfeModel; freightAs?: NfeFreightAs };
        header?: never;
        path: { orderId: string };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** JSON here; the same items as XML with `Accept: application/xml` (read with `parseAs: 'text'`). */
        200: { headers: Headers; content: { 'application/json': NfeItemsDto } };
      } & Errors;
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

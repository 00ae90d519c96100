/**
 * The order-level money fields of the tax engine (each item's shares, the totals' sums, the
 * amounts kept outside the invoice and the third-party payments), typed here by hand until the
 * generated client (`clients/typescript/src/schema.d.ts`) describes them. Then delete this file,
 * and the intersections with it in `tax-breakdown-model.ts`, and use the generated schemas:
 * `npm run typecheck` shows any difference.
 */

/** An item's share of the order-level amounts that enter the invoice. */
export interface LineTaxShares {
  discount?: number;
  freight?: number;
  otherCharges?: number;
  /** amount − discount + freight + otherCharges: the base before any reduction. */
  netAmount?: number;
  /** `unitPrice×quantity` when the item's amount was computed from its unit price. */
  amountFrom?: string;
}

/** The sums of the items' shares. */
export interface TaxTotalsShares {
  discount?: number;
  freight?: number;
  otherCharges?: number;
}

/** An order-level amount kept out of the invoice (and of every base), and the service's reason. */
export interface OutsideInvoiceAmount {
  /** `DISCOUNT`, `DELIVERY_FEE`, `SERVICE_CHARGE` or `OTHER_CHARGE` (read as text: a newer engine may add one). */
  kind: string;
  amount: number;
  reason: string;
}

/** A discount the platform or a third party pays back to the store. */
export interface ThirdPartyPayment {
  amount: number;
  /** `PLATFORM` or `THIRD_PARTY`. */
  sponsor: string;
  description?: string;
}

export interface TaxSummaryMoney {
  outsideInvoice?: OutsideInvoiceAmount[];
  thirdPartyPayments?: ThirdPartyPayment[];
}

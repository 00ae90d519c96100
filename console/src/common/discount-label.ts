import type { TFunction } from 'i18next';
import { isObj, text } from './values';

/**
 * What a marketplace discount's description says, as the code and parameters the service writes beside its English
 * `description` (`descriptionCode`, `descriptionParams`), so that the console says it in the reader's language.
 * Orders stored before the code existed carry only the English description: it is read back from the service's own
 * sentences, which are fixed per marketplace. Anything else (a description the sender wrote) is not a label.
 */
export const DISCOUNT_LABEL_CODES = [
  'SPONSORED_BY',
  'SPONSOR_UNKNOWN',
  'PAID_BY_STORE',
  'PAID_BY_MARKETPLACE',
  'MARKETPLACE_SUPPORT',
] as const;
export type DiscountLabelCode = (typeof DISCOUNT_LABEL_CODES)[number];

export interface DiscountLabel {
  code: DiscountLabelCode;
  /** The marketplace's name (a brand, the same in every language). */
  marketplace: string;
  /** The sponsor as the marketplace names it (`IFOOD`, `EXTERNAL`). */
  sponsor?: string;
  /** The marketplace's promotion type (99Food). */
  promotionType?: string;
  /** The marketplace's own text, as it sent it (a campaign's name). */
  detail?: string;
}

const isLabelCode = (code: string): code is DiscountLabelCode => (DISCOUNT_LABEL_CODES as readonly string[]).includes(code);

/** The service's English descriptions, as its marketplace profiles wrote them before the code was stored beside them. */
const STORED_SENTENCES: Array<{ pattern: RegExp; label: (match: RegExpMatchArray) => DiscountLabel }> = [
  {
    pattern: /^iFood benefit, sponsor unknown(?:: ([\s\S]*))?$/,
    label: (match) => ({ code: 'SPONSOR_UNKNOWN', marketplace: 'iFood', detail: match[1] }),
  },
  {
    pattern: /^iFood benefit sponsored by (.+?)(?:: ([\s\S]*))?$/,
    label: (match) => ({ code: 'SPONSORED_BY', marketplace: 'iFood', sponsor: match[1], detail: match[2] }),
  },
  {
    pattern: /^Rappi discount paid by the store: ([\s\S]*)$/,
    label: (match) => ({ code: 'PAID_BY_STORE', marketplace: 'Rappi', detail: match[1] }),
  },
  {
    pattern: /^Rappi discount paid by Rappi: ([\s\S]*)$/,
    label: (match) => ({ code: 'PAID_BY_MARKETPLACE', marketplace: 'Rappi', detail: match[1] }),
  },
  {
    pattern: /^Rappi discount, sponsor unknown: ([\s\S]*)$/,
    label: (match) => ({ code: 'SPONSOR_UNKNOWN', marketplace: 'Rappi', detail: match[1] }),
  },
  { pattern: /^Rappi support's discount, paid by Rappi$/, label: () => ({ code: 'MARKETPLACE_SUPPORT', marketplace: 'Rappi' }) },
  {
    pattern: /^99Food promotion \(type (.*)\) paid by the store$/,
    label: (match) => ({ code: 'PAID_BY_STORE', marketplace: '99Food', promotionType: match[1] }),
  },
  {
    pattern: /^99Food promotion \(type (.*)\) paid by 99Food$/,
    label: (match) => ({ code: 'PAID_BY_MARKETPLACE', marketplace: '99Food', promotionType: match[1] }),
  },
  {
    pattern: /^99Food promotion \(type (.*)\), sponsor unknown$/,
    label: (match) => ({ code: 'SPONSOR_UNKNOWN', marketplace: '99Food', promotionType: match[1] }),
  },
  {
    pattern: /^Open Delivery discount(?:, sponsor unknown| sponsored by an unknown sponsor)$/,
    label: () => ({ code: 'SPONSOR_UNKNOWN', marketplace: 'Open Delivery' }),
  },
  {
    pattern: /^Open Delivery discount sponsored by ([\s\S]+)$/,
    label: (match) => ({ code: 'SPONSORED_BY', marketplace: 'Open Delivery', sponsor: match[1] }),
  },
];

/** Without the parameters a sentence did not have, so that a label compares equal to the service's. */
function compact(label: DiscountLabel): DiscountLabel {
  return Object.fromEntries(Object.entries(label).filter(([, value]) => value !== undefined)) as unknown as DiscountLabel;
}

/** The label of a discount or of its payment by a third party (`{ description, descriptionCode, descriptionParams }`). */
export function discountLabelOf(entry: unknown): DiscountLabel | undefined {
  if (!isObj(entry)) return undefined;
  const code = text(entry.descriptionCode);
  const params = entry.descriptionParams;
  if (code !== undefined && isLabelCode(code) && isObj(params) && text(params.marketplace) !== undefined) {
    return compact({
      code,
      marketplace: text(params.marketplace)!,
      sponsor: text(params.sponsor),
      promotionType: text(params.promotionType),
      detail: text(params.detail),
    });
  }
  const description = text(entry.description);
  if (description === undefined) return undefined;
  for (const { pattern, label } of STORED_SENTENCES) {
    const match = description.match(pattern);
    if (match) return compact(label(match));
  }
  return undefined;
}

/** The label in the reader's language: the sentence of its code, then the promotion type and the marketplace's text. */
/** Said with the messages of the namespace `taxBreakdown`, under `thirdParty.labels`. */
export function sayDiscountLabel(label: DiscountLabel, t: TFunction<'taxBreakdown'>): string {
  // The store is named in the reader's words; iFood names its own sponsor `IFOOD`, which is the brand.
  const code = label.code === 'SPONSORED_BY' && label.sponsor === 'MERCHANT' ? 'PAID_BY_STORE' : label.code;
  const sponsor = label.sponsor === 'IFOOD' ? 'iFood' : (label.sponsor ?? '');
  let said = t(`thirdParty.labels.${code}`, { marketplace: label.marketplace, sponsor });
  if (label.promotionType !== undefined) said = t('thirdParty.labels.withPromotionType', { label: said, type: label.promotionType });
  if (label.detail) said = t('thirdParty.labels.withDetail', { label: said, detail: label.detail });
  return said;
}

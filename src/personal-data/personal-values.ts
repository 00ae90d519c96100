import { isPlainObject } from '../common/plain-object.js';
import { isPersonalByRule, normalisedKey, type PersonalDataFieldList } from './personal-data-fields.js';

/** What kind of a person's data a value is: the three a person can be looked up by, or another. */
export type PersonalValueKind = 'email' | 'phone' | 'document' | 'other';

/** One personal value found in a document: its path (`customer.phone.number`, `items[0].x`) and the value. */
export interface PersonalValue {
  path: string;
  value: string | number;
  kind: PersonalValueKind;
}

/** Where a stored order keeps a marketplace's document as it was sent: every list is also read under it. */
const SOURCE_DOCUMENT = 'sourceOrder';

/** The fiscal record: never personal, never erased (items, amounts, taxes). */
const FISCAL_RECORD = new Set(['taxSummary']);

type Segment = string | number;

function matchesAt(pattern: readonly string[], segments: readonly Segment[], offset: number): boolean {
  if (segments.length - offset < pattern.length) return false;
  // A plain loop: this runs for every pattern at every value of every order.
  for (let index = 0; index < pattern.length; index++) {
    const part = pattern[index];
    if (part !== '*' && part !== String(segments[offset + index])) return false;
  }
  return true;
}

function pathText(segments: readonly Segment[]): string {
  return segments.reduce<string>(
    (text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`),
    '',
  );
}

function kindOf(keys: readonly string[]): PersonalValueKind {
  for (let index = keys.length - 1; index >= 0 && index >= keys.length - 2; index--) {
    const key = normalisedKey(keys[index]);
    if (key.endsWith('email') || key === 'mail') return 'email';
    if (key.endsWith('phone') || key.endsWith('phonenumber') || key === 'telefone' || key === 'celular' || key === 'mobile') return 'phone';
    if (key.endsWith('document') || key.endsWith('documentnumber') || ['taxid', 'cpf', 'cnpj', 'cpfcnpj', 'documento'].includes(key))
      return 'document';
  }
  return 'other';
}

/**
 * Reads documents for a person's data: the listed paths of every intake shape, and the rule for what the lists miss.
 * One instance serves every shape: a stored order does not say which shape it came in, and the lists do not overlap
 * with the fiscal record.
 */
export class PersonalDataReader {
  private readonly patterns: readonly (readonly string[])[];

  constructor(lists: readonly PersonalDataFieldList[]) {
    const unique = new Set(lists.flatMap((list) => list.fields));
    this.patterns = [...unique].map((path) => path.split('.'));
  }

  /** Every personal value of `document` (the payload, the enriched payload, a new-order body, a marketplace's document). */
  valuesOf(document: unknown): PersonalValue[] {
    const found: PersonalValue[] = [];
    this.walk(document, [], [], found);
    return found;
  }

  /** Whether the value at these segments is personal (`keys`: the object keys among them). */
  isPersonal(segments: readonly Segment[], keys: readonly string[], value: unknown): boolean {
    if (typeof value !== 'string' && typeof value !== 'number') return false;
    const offset = segments[0] === SOURCE_DOCUMENT ? 1 : 0;
    if (offset === 0 && FISCAL_RECORD.has(String(segments[0]))) return false;
    for (const pattern of this.patterns) if (matchesAt(pattern, segments, offset)) return true;
    return isPersonalByRule(offset === 0 ? keys : keys.slice(1), value);
  }

  /**
   * A copy of `document` with every personal value replaced by `marker`, and how many were; everything else (items,
   * amounts, taxes, statuses) is the same. A value already the marker is not counted again (an erasure is idempotent).
   */
  erased(document: unknown, marker: string): { document: unknown; count: number } {
    let count = 0;
    const rebuild = (value: unknown, segments: Segment[], keys: string[]): unknown => {
      if (Array.isArray(value)) return value.map((entry, index) => rebuild(entry, [...segments, index], keys));
      if (isPlainObject(value)) {
        return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, rebuild(entry, [...segments, key], [...keys, key])]));
      }
      if (value === marker || !this.isPersonal(segments, keys, value)) return value;
      if (typeof value === 'string' && value.trim() === '') return value;
      count++;
      return marker;
    };
    const result = rebuild(document, [], []);
    return { document: result, count };
  }

  /**
   * A copy of `document` where each personal value is what `replace` answers for it (`undefined`: the property or array
   * entry is left out); every other value is the same.
   */
  mapped(document: unknown, replace: (value: PersonalValue) => unknown): unknown {
    const rebuild = (value: unknown, segments: Segment[], keys: string[]): unknown => {
      if (Array.isArray(value)) {
        return value.map((entry, index) => rebuild(entry, [...segments, index], keys)).filter((entry) => entry !== undefined);
      }
      if (isPlainObject(value)) {
        return Object.fromEntries(
          Object.entries(value)
            .map(([key, entry]) => [key, rebuild(entry, [...segments, key], [...keys, key])] as const)
            .filter(([, entry]) => entry !== undefined),
        );
      }
      if ((typeof value !== 'string' && typeof value !== 'number') || !this.isPersonal(segments, keys, value)) return value;
      if (typeof value === 'string' && value.trim() === '') return value;
      return replace({ path: pathText(segments), value, kind: kindOf(keys) });
    };
    return rebuild(document, [], []);
  }

  /** `segments` and `keys` are one stack each, pushed and popped around every entry: a walk of an order copies no path. */
  private walk(value: unknown, segments: Segment[], keys: string[], found: PersonalValue[]): void {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        segments.push(index);
        this.walk(value[index], segments, keys, found);
        segments.pop();
      }
      return;
    }
    if (isPlainObject(value)) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        segments.push(key);
        keys.push(key);
        this.walk(value[key], segments, keys, found);
        keys.pop();
        segments.pop();
      }
      return;
    }
    if ((typeof value === 'string' || typeof value === 'number') && this.isPersonal(segments, keys, value)) {
      if (typeof value === 'string' && value.trim() === '') return;
      found.push({ path: pathText(segments), value, kind: kindOf(keys) });
    }
  }
}

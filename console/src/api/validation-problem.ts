import i18next from 'i18next';
import type { problemMessages } from '../i18n/problem-messages';

type Constraint = Exclude<keyof (typeof problemMessages)['en']['validation'], 'other'>;

/**
 * A `VALIDATION_FAILED` detail's `problem` in the reader's language. The body keeps its documented `{ field, problem }`
 * with the validation library's English sentence (`must be longer than or equal to 3 characters`); those sentences
 * are the library's fixed templates, so the console reads the constraint and its parameters back from them and says
 * them in its own words. A sentence it does not know is said as "this value was refused" outside English, never shown
 * in English.
 */
const CONSTRAINTS: Array<{ pattern: RegExp; constraint: Constraint; params?: (match: RegExpMatchArray) => Record<string, string> }> = [
  { pattern: /^should not be empty$/, constraint: 'isNotEmpty' },
  { pattern: /^must be a string$/, constraint: 'isString' },
  { pattern: /^must be an email$/, constraint: 'isEmail' },
  { pattern: /^must be a boolean value$/, constraint: 'isBoolean' },
  { pattern: /^must be an integer number$/, constraint: 'isInt' },
  { pattern: /^must be a number conforming to the specified constraints$/, constraint: 'isNumber' },
  { pattern: /^must be a UUID$/, constraint: 'isUuid' },
  { pattern: /^must be an array$/, constraint: 'isArray' },
  { pattern: /^must be an object$/, constraint: 'isObject' },
  { pattern: /^must be a valid ISO 8601 date string$/, constraint: 'isIso8601' },
  { pattern: /^must be longer than or equal to (\d+) characters$/, constraint: 'minLength', params: (m) => ({ count: m[1]! }) },
  { pattern: /^must be shorter than or equal to (\d+) characters$/, constraint: 'maxLength', params: (m) => ({ count: m[1]! }) },
  { pattern: /^must not be less than (-?[\d.]+)$/, constraint: 'min', params: (m) => ({ limit: m[1]! }) },
  { pattern: /^must not be greater than (-?[\d.]+)$/, constraint: 'max', params: (m) => ({ limit: m[1]! }) },
  { pattern: /^must be one of the following values: (.*)$/, constraint: 'isIn', params: (m) => ({ values: m[1]! }) },
  // The service's own sentences for the order's amounts and the flat rules.
  { pattern: /^must be one of (.*)$/, constraint: 'isIn', params: (m) => ({ values: m[1]! }) },
  { pattern: /^is required\b/, constraint: 'isNotEmpty' },
  { pattern: /^must match .* regular expression$/, constraint: 'matches' },
  { pattern: /^property (\S+) should not exist$/, constraint: 'whitelist', params: (m) => ({ property: m[1]! }) },
  { pattern: /^must contain at least (\d+) elements$/, constraint: 'arrayMinSize', params: (m) => ({ count: m[1]! }) },
  { pattern: /^must contain no more than (\d+) elements$/, constraint: 'arrayMaxSize', params: (m) => ({ count: m[1]! }) },
];

/** The constraint a validation sentence states, with its parameters; undefined for a sentence the console does not know. */
export function constraintOf(problem: string): { constraint: Constraint; params: Record<string, string> } | undefined {
  // "each value in tags must be a string": the array's items, said as the same constraint.
  const sentence = problem.replace(/^each value in (?:nested property )?\S+ /, '');
  for (const { pattern, constraint, params } of CONSTRAINTS) {
    const match = sentence.match(pattern);
    if (match) return { constraint, params: params?.(match) ?? {} };
  }
  return undefined;
}

/** What a person reads of one detail's `problem`: as the service wrote it in English, else in the console's words. */
export function validationProblemText(problem: string | undefined): string {
  if (problem === undefined || problem === '') return '';
  if (i18next.language === undefined || i18next.language.startsWith('en')) return problem;
  const read = constraintOf(problem);
  if (read === undefined) return i18next.t('validation.other', { ns: 'problems' });
  return i18next.t(`validation.${read.constraint}`, { ns: 'problems', ...read.params });
}

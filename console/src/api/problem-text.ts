import i18next from 'i18next';
import { problemMessages } from '../i18n/problem-messages';

type KnownCode = keyof (typeof problemMessages)['en']['codes'];
type StatusKey = Exclude<keyof (typeof problemMessages)['en']['byStatus'], 'other' | 'network'>;

const isKnownCode = (code: string | undefined): code is KnownCode => code !== undefined && code in problemMessages.en.codes;
const isKnownStatus = (key: string): key is StatusKey => key in problemMessages.en.byStatus;

/** The typed fields of a domain failure's first detail (`orderId`, `storeId`...), as the message's parameters. */
function parametersOf(details: { [field: string]: unknown }[] | undefined): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(details?.[0] ?? {})) {
    if (name === 'field' || name === 'problem') continue;
    parameters[name] = value === null || value === undefined ? '—' : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return parameters;
}

/**
 * What a person reads of an error answer. The service speaks English: in English its sentence is shown as it is (it
 * names what failed); in any other language the console says the code in its own words, with the typed details as
 * parameters, or the status when the code is unknown, so that no English sentence of the service reaches the page.
 */
export function problemText(problem: { status: number; code?: string; message: string; details?: { [field: string]: unknown }[] }): string {
  if (i18next.language === undefined || i18next.language.startsWith('en')) return problem.message;
  if (isKnownCode(problem.code)) return i18next.t(`codes.${problem.code}`, { ns: 'problems', ...parametersOf(problem.details) });
  if (problem.status === 0) return i18next.t('byStatus.network', { ns: 'problems' });
  const key = `http${problem.status}`;
  if (isKnownStatus(key)) return i18next.t(`byStatus.${key}`, { ns: 'problems' });
  return i18next.t('byStatus.other', { ns: 'problems', status: String(problem.status) });
}

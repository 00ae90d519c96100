import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { namespaces } from './namespaces';

export type Language = 'pt-BR' | 'en';
export const LANGUAGES: readonly Language[] = ['pt-BR', 'en'];
const LANGUAGE_KEY = 'order-tax-console.language';

/** pt-BR for a Portuguese browser (the default), English otherwise, unless the user chose. */
export function initialLanguage(): Language {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  if (chosen === 'pt-BR' || chosen === 'en') return chosen;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('pt')) return 'pt-BR';
    if (lower.startsWith('en')) return 'en';
  }
  return 'pt-BR';
}

export function chooseLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export function setUpI18n(): typeof i18next {
  const resources: Record<Language, Record<string, object>> = { 'pt-BR': {}, en: {} };
  for (const [namespace, messages] of Object.entries(namespaces)) {
    resources['pt-BR'][namespace] = messages['pt-BR'];
    resources.en[namespace] = messages.en;
  }
  const language = initialLanguage();
  document.documentElement.lang = language;
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    ns: Object.keys(namespaces),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

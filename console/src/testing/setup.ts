import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach } from 'vitest';
import { setUpI18n } from '../i18n/i18n';

// One fixed zone with no daylight saving (UTC−03:00 all year since 2019), so that dates read the
// same on every machine and the zone's offset is not zero.
process.env.TZ = 'America/Sao_Paulo';

// What jsdom lacks and Mantine calls: media queries, element resizing, scrolling into view, the
// font loading events an autosized textarea (the calculator's JSON editor) listens to.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});
window.ResizeObserver = class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};
window.HTMLElement.prototype.scrollIntoView = () => undefined;
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });

// The console's own i18n set-up, in English unless a test switches.
setUpI18n();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  await i18next.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  // A followed link leaves a fragment in the URL, which the next render would read.
  window.history.replaceState(null, '', '/');
});

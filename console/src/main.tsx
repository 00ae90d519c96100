import '@mantine/core/styles.css';
import { createTheme, InputWrapper, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isProblem } from './api/client';
import { App } from './app';
import { restoreSession } from './auth/restore-session';
import { setUpI18n } from './i18n/i18n';

setUpI18n();
void restoreSession();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A client error will not change on retry; a 503 or a network failure may.
      retry: (failureCount, error) => failureCount < 2 && !(isProblem(error) && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

// Visible focus on every control, keyboard users first.
const theme = createTheme({
  focusRing: 'always',
  primaryColor: 'blue',
  primaryShade: 8,
  autoContrast: true,
  components: {
    // Mantine's default description gray is below WCAG AA contrast on white (axe): a darker one everywhere.
    InputWrapper: InputWrapper.extend({ styles: { description: { color: 'var(--mantine-color-gray-7)' } } }),
  },
});

// Mantine's error red (red.6) is below WCAG AA contrast on white for an invalid field's text and message: red.8.
const errorContrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-error': 'var(--mantine-color-red-8)' },
  dark: {},
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={errorContrast}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

import { MantineProvider } from '@mantine/core';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';

/** Renders a console component as the app does: inside Mantine's provider (i18n is set up once, in setup.ts). */
export function renderInConsole(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) {
  const wrapper = ({ children }: { children: ReactNode }) => <MantineProvider>{children}</MantineProvider>;
  return render(ui, { wrapper, ...options });
}

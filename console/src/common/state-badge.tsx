import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/** Background and text pairs that keep WCAG AA contrast at badge size (Mantine's light badges do not). */
const TONES = {
  on: ['teal.9', 'white'],
  off: ['gray.7', 'white'],
  warn: ['orange.6', 'black'],
} as const;

/** A state shown as a badge: its text always says it (colour is never the only sign). */
export function StateBadge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <Badge color={TONES[tone][0]} c={TONES[tone][1]} autoContrast={false} variant="filled" style={{ textTransform: 'none' }}>
      {children}
    </Badge>
  );
}

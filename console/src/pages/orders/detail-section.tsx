import { Box, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { JsonBlock } from './json-block';

/** A titled section of the order detail, its heading the target of the page's in-page links. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" id={`order-${id}`} aria-labelledby={`section-${id}`} style={{ minWidth: 0 }}>
      <Title order={2} id={`section-${id}`} mb="sm">
        {title}
      </Title>
      {children}
    </Box>
  );
}

/** An entry's extra fields as JSON, or a dash when there are none. */
export function Extra({ value, name, fileName }: { value: Record<string, unknown> | null; name: string; fileName: string }) {
  if (!value || Object.keys(value).length === 0) return <>—</>;
  return <JsonBlock name={name} value={value} fileName={fileName} />;
}

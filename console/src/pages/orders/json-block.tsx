import { Box, Button, Group, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Drawn at most this many characters at first: a large order's JSON would otherwise freeze the page. */
const FIRST_CHARACTERS = 200_000;

function sizeOf(characters: number, language: string): string {
  const format = (value: number, unit: string) =>
    `${new Intl.NumberFormat(language, { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value)} ${unit}`;
  if (characters < 1024) return format(characters, 'B');
  if (characters < 1024 * 1024) return format(characters / 1024, 'KiB');
  return format(characters / (1024 * 1024), 'MiB');
}

/**
 * JSON in a collapsible block (a native <details>, keyboard-usable as it is). The text is built
 * only once opened, and only its first 200,000 characters are drawn until asked for the rest;
 * the whole of it can always be downloaded.
 */
export function JsonBlock({ name, value, fileName }: { name: string; value: unknown; fileName: string }) {
  const { t, i18n } = useTranslation('orders');
  const [open, setOpen] = useState(false);
  const [all, setAll] = useState(false);
  const json = useMemo(() => (open ? JSON.stringify(value, null, 2) : ''), [open, value]);
  const cut = !all && json.length > FIRST_CHARACTERS;
  const shown = cut ? json.slice(0, FIRST_CHARACTERS) : json;

  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Box component="details" onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <Box component="summary" py={4} style={{ cursor: 'pointer', fontWeight: 600 }}>
        {t('detail.json.label', { name })}
      </Box>
      {open && (
        <Box mt="xs">
          <Group gap="sm" mb="xs">
            <Text size="sm" c="gray.7">
              {cut
                ? t('detail.json.cut', { shown: sizeOf(FIRST_CHARACTERS, i18n.language), size: sizeOf(json.length, i18n.language) })
                : t('detail.json.size', { size: sizeOf(json.length, i18n.language) })}
            </Text>
            {cut && (
              <Button size="xs" variant="light" onClick={() => setAll(true)}>
                {t('detail.json.showAll')}
              </Button>
            )}
            <Button size="xs" variant="default" onClick={download}>
              {t('detail.json.download')}
            </Button>
          </Group>
          <Box
            component="pre"
            tabIndex={0}
            role="region"
            aria-label={t('detail.json.label', { name })}
            m={0}
            p="sm"
            bg="gray.0"
            style={{
              maxHeight: '60vh',
              overflow: 'auto',
              fontSize: 'var(--mantine-font-size-xs)',
              border: '1px solid var(--mantine-color-gray-3)',
            }}
          >
            {shown}
          </Box>
        </Box>
      )}
    </Box>
  );
}

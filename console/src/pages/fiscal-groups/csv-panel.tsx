import { Alert, Box, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { csvProblemLine, type CsvProblemLine } from './csv-problems';
import type { FiscalGroup } from './matrix-model';

interface Props {
  groupId: string;
  onImported: (group: FiscalGroup) => void;
}

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

type Status =
  | { kind: 'idle' }
  | { kind: 'busy'; name: string }
  | { kind: 'done'; name: string; count: number }
  | { kind: 'failed'; message: string; lines: CsvProblemLine[] };

/** Import (file picker or drag and drop) and export of a group's tax matrix as CSV. */
export function CsvPanel({ groupId, onImported }: Props) {
  const { t } = useTranslation('fiscalGroups');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [dragging, setDragging] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);

  async function importFile(file: File) {
    setStatus({ kind: 'busy', name: file.name });
    try {
      const text = await file.text();
      const group = unwrap(
        await api.PUT('/api/admin/fiscal-groups/{id}/tax-matrix', {
          params: { path: { id: groupId } },
          body: text,
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': 'text/csv' },
        }),
      );
      onImported(group);
      setStatus({ kind: 'done', name: file.name, count: Object.keys(group.taxMatrix ?? {}).length });
    } catch (error) {
      const problem: ApiProblem | undefined = isProblem(error) ? error : undefined;
      setStatus({
        kind: 'failed',
        message: problem?.message ?? String(error),
        lines: (problem?.details ?? []).map(csvProblemLine),
      });
    }
  }

  async function exportCsv() {
    setExportError(null);
    try {
      const blob = unwrap(
        await api.GET('/api/admin/fiscal-groups/{id}/tax-matrix.csv', { params: { path: { id: groupId } }, parseAs: 'blob' }),
      );
      const url = URL.createObjectURL(blob as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `tax-matrix-${groupId}.csv`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setExportError(isProblem(error) ? error.message : String(error));
    }
  }

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(null);
    const file = event.dataTransfer.files[0];
    if (file) void importFile(file);
  };

  return (
    <Paper withBorder p="md" pos="relative">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('csv.title')}
        </Title>
        <Text size="sm">{t('csv.intro')}</Text>
        <Text size="sm" c="gray.7">
          {t('csv.unsavedNote')}
        </Text>
        <Group gap="sm">
          {/* The native input stays in the tab order (keyboard: Tab, then Enter or Space opens the picker); its translated label is the visible button. */}
          <input
            id="tax-matrix-csv-file"
            type="file"
            accept=".csv,text/csv"
            disabled={status.kind === 'busy'}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
            style={VISUALLY_HIDDEN}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) void importFile(file);
            }}
          />
          <Button
            component="label"
            htmlFor="tax-matrix-csv-file"
            variant="light"
            style={focused ? { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: 2 } : undefined}
          >
            {t('csv.file')}
          </Button>
        </Group>
        <Box
          data-testid="csv-drop-zone"
          onDragEnter={(event) => {
            event.preventDefault();
            setDragging(event.dataTransfer.items[0]?.type || 'CSV');
          }}
          onDragOver={(event) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={() => setDragging(null)}
          onDrop={onDrop}
          p="lg"
          style={{
            border: '2px dashed var(--mantine-color-gray-6)',
            borderRadius: 'var(--mantine-radius-md)',
            background: dragging ? 'var(--mantine-color-blue-0)' : undefined,
            textAlign: 'center',
          }}
        >
          <Text size="sm">{dragging ? t('csv.dropping', { name: dragging }) : t('csv.dropZone')}</Text>
        </Box>
        <div aria-live="polite">
          {status.kind === 'busy' && <Text size="sm">{t('csv.importing', { name: status.name })}</Text>}
          {status.kind === 'done' && (
            <Alert color="green" role="status">
              {t('csv.imported', { name: status.name, count: status.count })}
            </Alert>
          )}
        </div>
        {status.kind === 'failed' && (
          <Alert color="red" role="alert" title={t('csv.importFailed', { message: status.message })}>
            {status.lines.length > 0 && (
              <>
                <Text size="sm" fw={600} mb={4}>
                  {t('csv.errorsTitle')}
                </Text>
                <List size="sm" data-testid="csv-errors">
                  {status.lines.map((entry, index) => (
                    <List.Item key={index}>
                      {entry.line !== undefined ? <strong>{t('csv.line', { line: entry.line })}</strong> : null}
                      {entry.line !== undefined ? ': ' : ''}
                      {entry.text}
                    </List.Item>
                  ))}
                </List>
              </>
            )}
          </Alert>
        )}
        <Group>
          <Button variant="default" onClick={() => void exportCsv()}>
            {t('csv.export')}
          </Button>
        </Group>
        {exportError && (
          <Alert color="red" role="alert">
            {t('csv.exportFailed', { message: exportError })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

import { Alert, Badge, Button, Group, List, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';

type Report = Schemas['ProductCategoryImportReportDto'];
type Row = Report['rows'][number];
type Problem = Row['problems'][number];

const OUTCOME_COLORS: Record<Row['outcome'], string> = { created: 'green', changed: 'blue', unchanged: 'gray', error: 'red' };

async function send(file: ArrayBuffer, dryRun: boolean): Promise<Report> {
  return unwrap(
    await api.POST('/api/admin/product-fiscal-categories.csv', {
      params: { query: { dryRun } },
      // The file's bytes as they are: the server tells UTF-8 from Windows-1252.
      body: file as unknown as string,
      bodySerializer: (body: string) => body,
      headers: { 'Content-Type': 'text/csv' },
    }),
  );
}

/**
 * Import of product categories from a spreadsheet: the file is first sent as a dry run, whose answer lists each row
 * (created, changed field by field, unchanged, or its problems); only then can the person apply it.
 */
export function CategoriesCsvImport({ onApplied }: { onApplied: (report: Report) => void }) {
  const { t } = useTranslation('categories');
  // A problem or warning of a row in the person's language, from its code and fields.
  const problemText = (item: Problem) =>
    t(`csv.codes.${item.code}`, {
      column: item.column ? t(`csv.columns.${item.column}`) : '',
      otherLine: item.otherLine,
      otherProductId: item.otherProductId,
      suggestion: item.suggestion,
    });
  const [file, setFile] = useState<{ name: string; bytes: ArrayBuffer } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(chosen: { name: string; bytes: ArrayBuffer }, dryRun: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await send(chosen.bytes, dryRun);
      if (dryRun) setReport(answer);
      else onApplied(answer);
    } catch (error) {
      setReport(null);
      setProblem(isProblem(error) ? error : { status: 0, message: String(error) });
    } finally {
      setBusy(false);
    }
  }

  const changes = report ? report.counts.created + report.counts.changed : 0;
  return (
    <Stack gap="sm">
      <Text size="sm">{t('csv.intro')}</Text>
      <input
        aria-label={t('csv.file')}
        type="file"
        accept=".csv,text/csv"
        disabled={busy}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (!chosen) return;
          void chosen.arrayBuffer().then((bytes) => {
            const read = { name: chosen.name, bytes };
            setFile(read);
            return run(read, true);
          });
        }}
      />
      {problem && (
        <Alert color="red" role="alert" title={t('csv.unreadable', { message: problem.message })}>
          {(problem.details ?? []).length > 0 && (
            <List size="sm">
              {(problem.details ?? []).map((detail, index) => (
                <List.Item key={index}>
                  {detail.line ? t('csv.line', { line: detail.line }) : ''} {detail.problem}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {report && file && (
        <>
          <Text size="sm" role="status">
            {t('csv.summary', { name: file.name, ...report.counts })}
            {report.encoding === 'windows-1252' ? ` ${t('csv.windows1252')}` : ''}
          </Text>
          <Table.ScrollContainer minWidth={640} type="native" mah={360}>
            <Table striped aria-label={t('csv.reportTable')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('csv.lineHeader')}</Table.Th>
                  <Table.Th>{t('productId')}</Table.Th>
                  <Table.Th>{t('csv.outcomeHeader')}</Table.Th>
                  <Table.Th>{t('csv.detailHeader')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.rows.map((row) => (
                  <Table.Tr key={row.line}>
                    <Table.Td>{row.line}</Table.Td>
                    <Table.Td>{row.productId ?? '—'}</Table.Td>
                    <Table.Td>
                      <Badge color={OUTCOME_COLORS[row.outcome]} variant="light">
                        {t(`csv.outcomes.${row.outcome}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        {row.changes.map((change) => (
                          <Text size="xs" key={change.field}>
                            {t(`csv.columns.${change.field}`)}: {change.before ?? '—'} → {change.after ?? '—'}
                          </Text>
                        ))}
                        {[...row.problems, ...row.warnings].map((item, index) => (
                          <Text size="xs" key={index} c={row.problems.includes(item) ? 'red.8' : 'orange.9'}>
                            {problemText(item)}
                          </Text>
                        ))}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {report.counts.error > 0 && (
            <Alert color="red" role="alert">
              {t('csv.fixErrors', { count: report.counts.error })}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button disabled={report.counts.error > 0 || changes === 0} loading={busy} onClick={() => void run(file, false)}>
              {t('csv.apply', { count: changes })}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** Downloads every category as CSV, with the person's session. */
export async function downloadCategoriesCsv(): Promise<void> {
  const blob = unwrap(await api.GET('/api/admin/product-fiscal-categories.csv', { parseAs: 'blob' }));
  const url = URL.createObjectURL(blob as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'product-fiscal-categories.csv';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

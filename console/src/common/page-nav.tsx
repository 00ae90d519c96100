import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The page envelope's place in the list, and the pages to go to. */
export function PageNav({
  page,
  totalPages,
  total,
  onChange,
}: {
  page: number;
  totalPages: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Text size="sm">{t('pagination.summary', { total, page, pages: Math.max(totalPages, 1) })}</Text>
      {totalPages > 1 && (
        <Pagination
          total={totalPages}
          value={page}
          onChange={onChange}
          siblings={1}
          boundaries={1}
          getControlProps={(control) => ({ 'aria-label': t(`pagination.control.${control}`) })}
          aria-label={t('pagination.label')}
        />
      )}
    </Group>
  );
}

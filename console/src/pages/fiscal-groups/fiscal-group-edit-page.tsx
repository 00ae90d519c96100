import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function FiscalGroupEditPage() {
  const { t } = useTranslation();
  return <Title order={1}>{t('nav.fiscalGroups')}</Title>;
}

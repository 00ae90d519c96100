import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function OrdersPage() {
  const { t } = useTranslation();
  return <Title order={1}>{t('nav.orders')}</Title>;
}

import { Badge, Box, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { Facts, ScrollTable } from '../../common/display';
import { formatDateTime } from '../../common/format';

type Delivery = Schemas['WebhookDeliveryEntryDto'];

/** One webhook delivery attempt: its answer, timing, the headers sent and the body received. */
export function DeliveryCard({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('orders');
  const ok = delivery.statusCode !== null && delivery.statusCode >= 200 && delivery.statusCode < 300;
  const headers = Object.entries(delivery.requestHeaders ?? {});
  return (
    <Paper withBorder p="sm" data-testid="delivery" data-attempt={delivery.attempt}>
      <Group gap="sm" mb="xs" wrap="wrap">
        <Text fw={700}>
          {t('detail.attempt')} {delivery.attempt}
        </Text>
        <Badge variant="outline" color="gray.8" style={{ textTransform: 'none' }} data-testid="delivery-trigger">
          {t(`detail.triggers.${delivery.trigger}`, { defaultValue: delivery.trigger })}
        </Badge>
        <Badge
          color={ok ? 'teal.9' : 'red.9'}
          c="white"
          autoContrast={false}
          style={{ textTransform: 'none' }}
          data-testid="delivery-status"
        >
          {delivery.statusCode === null ? t('detail.noAnswer') : `HTTP ${delivery.statusCode}`}
        </Badge>
        <Text size="sm" c="gray.7">
          {formatDateTime(delivery.attemptedAt)}
        </Text>
      </Group>
      <Facts
        items={[
          [t('detail.url'), <Code key="url">{delivery.url}</Code>],
          [t('detail.statusCode'), delivery.statusCode === null ? t('detail.noAnswer') : String(delivery.statusCode)],
          [t('detail.duration'), t('detail.durationValue', { ms: delivery.durationMs })],
          [t('detail.trigger'), t(`detail.triggers.${delivery.trigger}`, { defaultValue: delivery.trigger })],
          [t('detail.webhookId'), <Code key="wid">{delivery.webhookId}</Code>],
          [t('detail.error'), delivery.error ?? '—'],
        ]}
      />
      <Stack gap={4} mt="xs">
        <Box component="details">
          <Box component="summary" style={{ cursor: 'pointer' }}>
            {t('detail.requestHeaders', { attempt: delivery.attempt })}
          </Box>
          <ScrollTable striped verticalSpacing="xs" label={t('detail.requestHeaders', { attempt: delivery.attempt })} minWidth={480}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('detail.header')}</Table.Th>
                <Table.Th scope="col">{t('detail.value')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {headers.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th scope="row" fw={500}>
                    <Code>{name}</Code>
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        </Box>
        <Box component="details">
          <Box component="summary" style={{ cursor: 'pointer' }}>
            {t('detail.responseBody', { attempt: delivery.attempt })}
          </Box>
          {delivery.responseBody ? (
            <Box
              component="pre"
              tabIndex={0}
              role="region"
              aria-label={t('detail.responseBody', { attempt: delivery.attempt })}
              m={0}
              mt={4}
              p="xs"
              bg="gray.0"
              data-testid="delivery-body"
              style={{
                maxHeight: '40vh',
                overflow: 'auto',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                fontSize: 'var(--mantine-font-size-xs)',
              }}
            >
              {delivery.responseBody}
            </Box>
          ) : (
            <Text size="sm" c="gray.7">
              {t('detail.noBody')}
            </Text>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}

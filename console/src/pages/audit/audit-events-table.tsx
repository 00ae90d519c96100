import { Code, List, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AuditEventDto } from './audit-model';
import { formatDateTime } from '../../common/format';
import { changeLines } from './audit-model';

/** Audit events as the API lists them (newest first); each event's changes as before → after. */
export function AuditEventsTable({ events, showTarget = true }: { events: AuditEventDto[]; showTarget?: boolean }) {
  const { t } = useTranslation('audit');
  return (
    // Focusable: a keyboard user scrolls the wide table (the History tab's events may hold no link).
    <Table.ScrollContainer minWidth={880} type="native" tabIndex={0} role="region" aria-label={t('table')}>
      <Table striped aria-label={t('table')} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('at')}</Table.Th>
            <Table.Th>{t('actor')}</Table.Th>
            <Table.Th>{t('action')}</Table.Th>
            {showTarget && <Table.Th>{t('target')}</Table.Th>}
            <Table.Th>{t('changes')}</Table.Th>
            <Table.Th>{t('origin')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => {
            const lines = changeLines(event);
            return (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{event.actor.name}</Text>
                  <Text size="xs" c="gray.7">
                    {t(`actorTypes.${event.actor.type}`)} · {event.actor.id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Code>{event.action}</Code>
                </Table.Td>
                {showTarget && (
                  <Table.Td>
                    <Text size="sm">{event.target.type}</Text>
                    <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                      {event.target.id}
                    </Text>
                  </Table.Td>
                )}
                <Table.Td>
                  {lines.length === 0 ? (
                    <Text size="sm" c="gray.7">
                      {t('noChanges')}
                    </Text>
                  ) : (
                    <List size="sm" spacing={2}>
                      {lines.map((line) => (
                        <List.Item key={line.field} style={{ wordBreak: 'break-word' }}>
                          <strong>{line.field}</strong>: {line.before} → {line.after}
                        </List.Item>
                      ))}
                    </List>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{event.address ?? '—'}</Text>
                  <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                    {event.requestId ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

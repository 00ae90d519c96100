import { Code, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';

type Field = Schemas['PersonalDataFieldDto'];

/** An order's personal fields: which copy holds each, its path and its value. */
export function PersonalFieldsTable({ fields, label }: { fields: Field[]; label: string }) {
  const { t } = useTranslation('personalData');
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('place')}</Table.Th>
            <Table.Th>{t('path')}</Table.Th>
            <Table.Th>{t('fieldValue')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={`${field.place}:${field.path}`}>
              <Table.Td>{t(`places.${field.place}`)}</Table.Td>
              <Table.Td>
                <Code>{field.path}</Code>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{String(field.value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

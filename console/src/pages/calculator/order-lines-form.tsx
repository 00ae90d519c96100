import { Button, CloseButton, Group, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { newLine, type LineValues } from './order-lines';

/** The order's products as rows of fields: what a person fills in to try an order without writing JSON. */
export function OrderLinesForm({ lines, onChange }: { lines: LineValues[]; onChange: (lines: LineValues[]) => void }) {
  const { t } = useTranslation('calculator');
  const update = (uid: string, change: Partial<LineValues>) =>
    onChange(lines.map((line) => (line.uid === uid ? { ...line, ...change } : line)));
  return (
    <Stack gap="sm" role="group" aria-labelledby="calculator-lines-title">
      <Title order={3} size="h5" id="calculator-lines-title">
        {t('lines.title')}
      </Title>
      {lines.map((line, index) => {
        const n = index + 1;
        return (
          <Group key={line.uid} gap="sm" align="flex-end" wrap="wrap" data-testid="calculator-line">
            <TextInput
              label={t('lines.productId')}
              aria-label={t('lines.productIdN', { n })}
              value={line.productId}
              onChange={(event) => update(line.uid, { productId: event.currentTarget.value })}
              w={180}
            />
            <TextInput
              label={t('lines.name')}
              aria-label={t('lines.nameN', { n })}
              value={line.name}
              onChange={(event) => update(line.uid, { name: event.currentTarget.value })}
              w={220}
            />
            <TextInput
              label={t('lines.quantity')}
              aria-label={t('lines.quantityN', { n })}
              inputMode="decimal"
              value={line.quantity}
              onChange={(event) => update(line.uid, { quantity: event.currentTarget.value })}
              w={100}
            />
            <TextInput
              label={t('lines.unitPrice')}
              aria-label={t('lines.unitPriceN', { n })}
              inputMode="decimal"
              placeholder="0.00"
              value={line.unitPrice}
              onChange={(event) => update(line.uid, { unitPrice: event.currentTarget.value })}
              w={130}
            />
            <CloseButton
              aria-label={t('lines.removeN', { n })}
              onClick={() => onChange(lines.filter((other) => other.uid !== line.uid))}
              mb={4}
            />
          </Group>
        );
      })}
      <Group gap="sm">
        <Button variant="light" size="xs" onClick={() => onChange([...lines, newLine()])}>
          {t('lines.add')}
        </Button>
      </Group>
    </Stack>
  );
}

import { Button, CloseButton, Fieldset, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CHARGED_BY, DISCOUNT_SPONSORS, DISCOUNT_TARGETS, newDiscount, newOtherCharge, type AdjustmentValues } from './calculator-request';

const AMOUNT_WIDTH = 140;

/**
 * The order-level amounts of a platform order, as form controls: discounts (amount, who pays it,
 * what it applies to, the line for an `ITEM` one), the delivery fee and who delivers, the service
 * charge and other charges. They go under the request's `order`; the API judges them.
 */
export function OrderAdjustments({
  form,
  lines,
}: {
  form: UseFormReturnType<AdjustmentValues>;
  lines: { value: string; label: string }[];
}) {
  const { t } = useTranslation('calculator');
  const { discounts, otherCharges } = form.getValues();
  const amountProps = { inputMode: 'decimal' as const, w: AMOUNT_WIDTH, placeholder: '0.00' };
  return (
    <Stack gap="sm" role="group" aria-labelledby="calculator-adjustments-title">
      <Title order={3} size="h5" id="calculator-adjustments-title">
        {t('adjustments.title')}
      </Title>
      <Text size="sm" c="gray.7">
        {t('adjustments.hint')}
      </Text>

      {discounts.map((discount, index) => (
        <Fieldset key={discount.uid} legend={t('adjustments.discountN', { n: index + 1 })} p="sm" data-testid="calculator-discount">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput label={t('adjustments.amount')} {...amountProps} {...form.getInputProps(`discounts.${index}.amount`)} />
            <NativeSelect
              label={t('adjustments.sponsor')}
              data={DISCOUNT_SPONSORS.map((value) => ({ value, label: t(`adjustments.sponsors.${value}`) }))}
              {...form.getInputProps(`discounts.${index}.sponsor`)}
            />
            <NativeSelect
              label={t('adjustments.target')}
              data={DISCOUNT_TARGETS.map((value) => ({ value, label: t(`adjustments.targets.${value}`) }))}
              {...form.getInputProps(`discounts.${index}.target`)}
            />
            {discount.target === 'ITEM' && (
              <NativeSelect
                label={t('adjustments.line')}
                data={lines.length > 0 ? lines : [{ value: '0', label: '1' }]}
                {...form.getInputProps(`discounts.${index}.productIndex`)}
              />
            )}
            <TextInput label={t('adjustments.description')} maw={240} {...form.getInputProps(`discounts.${index}.description`)} />
            <CloseButton
              aria-label={t('adjustments.removeDiscount', { n: index + 1 })}
              onClick={() => form.removeListItem('discounts', index)}
              mb={4}
            />
          </Group>
        </Fieldset>
      ))}
      <Group gap="sm">
        <Button variant="light" size="xs" onClick={() => form.insertListItem('discounts', newDiscount())}>
          {t('adjustments.addDiscount')}
        </Button>
      </Group>

      <Fieldset legend={t('adjustments.deliveryFee')} p="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('adjustments.amount')}
            description={t('adjustments.blankForNone')}
            {...amountProps}
            {...form.getInputProps('deliveryFee.amount')}
          />
          <NativeSelect
            label={t('adjustments.deliveredBy')}
            data={CHARGED_BY.map((value) => ({ value, label: t(`adjustments.deliverers.${value}`) }))}
            {...form.getInputProps('deliveryFee.deliveredBy')}
          />
        </Group>
      </Fieldset>

      <Fieldset legend={t('adjustments.serviceCharge')} p="sm">
        <TextInput
          label={t('adjustments.amount')}
          description={t('adjustments.serviceChargeHint')}
          inputMode="decimal"
          placeholder="0.00"
          maw={360}
          {...form.getInputProps('serviceCharge.amount')}
        />
      </Fieldset>

      {otherCharges.map((charge, index) => (
        <Fieldset key={charge.uid} legend={t('adjustments.otherChargeN', { n: index + 1 })} p="sm" data-testid="calculator-other-charge">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput label={t('adjustments.amount')} {...amountProps} {...form.getInputProps(`otherCharges.${index}.amount`)} />
            <NativeSelect
              label={t('adjustments.chargedBy')}
              data={CHARGED_BY.map((value) => ({ value, label: t(`adjustments.chargers.${value}`) }))}
              {...form.getInputProps(`otherCharges.${index}.chargedBy`)}
            />
            <TextInput label={t('adjustments.description')} maw={240} {...form.getInputProps(`otherCharges.${index}.description`)} />
            <CloseButton
              aria-label={t('adjustments.removeOtherCharge', { n: index + 1 })}
              onClick={() => form.removeListItem('otherCharges', index)}
              mb={4}
            />
          </Group>
        </Fieldset>
      ))}
      <Group gap="sm">
        <Button variant="light" size="xs" onClick={() => form.insertListItem('otherCharges', newOtherCharge())}>
          {t('adjustments.addOtherCharge')}
        </Button>
      </Group>
    </Stack>
  );
}

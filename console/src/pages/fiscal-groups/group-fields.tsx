import { Autocomplete, Checkbox, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title, type OptionsFilter } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DELIVERY_FEE_ON_INVOICE, type GroupFormValues } from './group-form';
import { UF_CODES } from './matrix-model';
import { DESCRIPTION_STYLES } from './styles';
import { KNOWN_TAX_REGIMES, knownTaxRegime, regimeMatches } from './tax-regimes';

/**
 * The group's own fields: name, external id, state, tax regime (known regimes offered, any text accepted), and the
 * settings that change the arithmetic, each with the sentence that tells an accountant when to change it.
 */
export function GroupFields({ form }: { form: UseFormReturnType<GroupFormValues> }) {
  const { t } = useTranslation('fiscalGroups');
  const describe = (value: string) => {
    const regime = knownTaxRegime(value);
    return regime ? t(`edit.regimes.${regime.value}`, { crt: regime.crt }) : undefined;
  };
  const filter: OptionsFilter = ({ options, search }) =>
    options.filter((option) => {
      if (!('value' in option)) return false;
      const regime = knownTaxRegime(option.value);
      return regime ? regimeMatches(regime, describe(regime.value) ?? '', search) : false;
    });
  const regimeInput = form.getInputProps('taxRegime');
  const chosen = describe(String(regimeInput.value ?? ''));
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('edit.general')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('edit.name')} required {...form.getInputProps('name')} />
          <TextInput
            label={t('edit.externalId')}
            description={t('edit.externalIdHint')}
            styles={DESCRIPTION_STYLES}
            {...form.getInputProps('externalId')}
          />
          <NativeSelect
            label={t('edit.uf')}
            required
            data={[{ value: '', label: t('edit.chooseUf') }, ...UF_CODES.map((uf) => ({ value: uf, label: uf }))]}
            {...form.getInputProps('uf')}
          />
          <Autocomplete
            label={t('edit.taxRegime')}
            description={chosen ?? t('edit.taxRegimeHint')}
            styles={DESCRIPTION_STYLES}
            data={KNOWN_TAX_REGIMES.map((regime) => regime.value)}
            filter={filter}
            renderOption={({ option }) => (
              <div>
                <Text size="sm" fw={600}>
                  {option.value}
                </Text>
                <Text size="xs" c="gray.7">
                  {describe(option.value)}
                </Text>
              </div>
            )}
            {...regimeInput}
          />
        </SimpleGrid>
        <Checkbox
          label={t('edit.includeIcms')}
          description={t('edit.includeIcmsHint')}
          styles={DESCRIPTION_STYLES}
          {...form.getInputProps('includeIcms', { type: 'checkbox' })}
          error={form.errors['settings.includeIcmsInPisCofinsBase']}
        />
        <Title order={3} size="h4">
          {t('edit.invoiceAmounts')}
        </Title>
        <Checkbox
          label={t('edit.platformDiscounts')}
          description={t('edit.platformDiscountsHint')}
          styles={DESCRIPTION_STYLES}
          {...form.getInputProps('platformDiscountsReduceBase', { type: 'checkbox' })}
          error={form.errors['settings.platformDiscountsReduceBase']}
        />
        <NativeSelect
          label={t('edit.deliveryFee')}
          description={t('edit.deliveryFeeHint')}
          styles={DESCRIPTION_STYLES}
          data={DELIVERY_FEE_ON_INVOICE.map((value) => ({ value, label: t(`edit.deliveryFeeOptions.${value}`) }))}
          {...form.getInputProps('deliveryFeeOnInvoice')}
          error={form.errors['settings.deliveryFeeOnInvoice']}
        />
        <Checkbox
          label={t('edit.serviceCharge')}
          description={t('edit.serviceChargeHint')}
          styles={DESCRIPTION_STYLES}
          {...form.getInputProps('serviceChargeInIcmsBase', { type: 'checkbox' })}
          error={form.errors['settings.serviceChargeInIcmsBase']}
        />
        <TextInput
          label={t('edit.defaultCfop')}
          description={t('edit.defaultCfopHint')}
          styles={DESCRIPTION_STYLES}
          maw={320}
          {...form.getInputProps('defaultCfop')}
          error={form.errors['settings.defaultCfop']}
        />
      </Stack>
    </Paper>
  );
}

import { Badge, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from './display';
import { sayDiscountLabel } from './discount-label';
import { formatMoney } from './format';
import { taxBreakdownMessages } from './tax-breakdown-messages';
import { isKnownOutsideKind, isKnownSponsor, outsideInvoiceOf, thirdPartyPaymentsOf, type TaxSummary } from './tax-breakdown-model';

/**
 * The order-level amounts the engine kept out of the invoice and of every base (each with its
 * kind and the service's reason), and the discounts someone else pays back to the store (the
 * invoice's payment group). Nothing is drawn for an order without them.
 */
export function OutsideInvoice({
  summary,
  anchorPrefix,
  headingOrder,
}: {
  summary: TaxSummary;
  anchorPrefix: string;
  headingOrder: 2 | 3 | 4;
}) {
  const { t } = useTranslation('taxBreakdown');
  const outside = outsideInvoiceOf(summary);
  const payments = thirdPartyPaymentsOf(summary);
  if (outside.length === 0 && payments.length === 0) return null;
  const sub = (headingOrder + 1) as 3 | 4 | 5;
  return (
    <section aria-labelledby={`${anchorPrefix}-outside`} data-testid="tax-outside-invoice">
      <Title order={headingOrder} id={`${anchorPrefix}-outside`} mb="xs">
        {t('outside.title')}
      </Title>
      <Stack gap="md">
        <Text size="sm">{t('outside.intro')}</Text>
        {outside.length > 0 && (
          <ScrollTable verticalSpacing={4} label={t('outside.table')} minWidth={560}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('outside.kind')}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('amount')}
                </Table.Th>
                <Table.Th scope="col">{t('outside.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outside.map((entry, index) => (
                <Table.Tr key={index} data-kind={entry.kind}>
                  <Table.Th scope="row" fw={500}>
                    {/* A kind of a newer engine shows as the service wrote it. */}
                    {isKnownOutsideKind(entry.kind) ? t(`outside.kinds.${entry.kind}`) : entry.kind}
                  </Table.Th>
                  <Table.Td ta="right" data-field="amount">
                    {formatMoney(entry.amount)}
                  </Table.Td>
                  <Table.Td>
                    <Reason reason={entry.reason} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        )}
        {payments.length > 0 && (
          <Stack gap="xs">
            <Title order={sub} size="h5" id={`${anchorPrefix}-third-party`}>
              {t('thirdParty.title')}
            </Title>
            <Text size="sm">{t('thirdParty.intro')}</Text>
            <ScrollTable verticalSpacing={4} label={t('thirdParty.table')} minWidth={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('thirdParty.sponsor')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('amount')}
                  </Table.Th>
                  <Table.Th scope="col">{t('thirdParty.description')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payments.map((payment, index) => (
                  <Table.Tr key={index} data-sponsor={payment.sponsor}>
                    <Table.Th scope="row" fw={500}>
                      {isKnownSponsor(payment.sponsor) ? (
                        t(`thirdParty.sponsors.${payment.sponsor}`)
                      ) : (
                        <Badge variant="outline" color="gray.8" style={{ textTransform: 'none' }}>
                          {payment.sponsor}
                        </Badge>
                      )}
                    </Table.Th>
                    <Table.Td ta="right" data-field="amount">
                      {formatMoney(payment.amount)}
                    </Table.Td>
                    {/* A marketplace's discount is said from its code; any other description is the sender's own text. */}
                    <Table.Td data-field="description">
                      {payment.label ? sayDiscountLabel(payment.label, t) : (payment.description ?? '—')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ScrollTable>
          </Stack>
        )}
      </Stack>
    </section>
  );
}

type ReasonCode = keyof (typeof taxBreakdownMessages)['en']['outside']['reasons'];
const isReasonCode = (reason: string): reason is ReasonCode => Object.hasOwn(taxBreakdownMessages.en.outside.reasons, reason);

/**
 * Why an amount stays outside: a reason code the console knows is explained in the chosen language,
 * beside the code; any other reason is the service's own sentence, in English.
 */
function Reason({ reason }: { reason: string }) {
  const { t } = useTranslation('taxBreakdown');
  if (isReasonCode(reason))
    return (
      <Stack gap={2}>
        <Text size="sm">{t(`outside.reasons.${reason}`)}</Text>
        <Code style={{ overflowWrap: 'anywhere', alignSelf: 'flex-start' }}>{reason}</Code>
      </Stack>
    );
  return (
    // The service writes its sentences in English: marked so, for screen readers in a pt-BR page.
    <Text size="sm" lang="en" title={t('apiDetail')}>
      {reason}
    </Text>
  );
}

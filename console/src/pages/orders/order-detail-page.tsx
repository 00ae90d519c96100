import { Alert, Anchor, Button, Code, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { SECTIONS } from '../../auth/roles';
import { useHasRole } from '../../auth/use-session';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';
import { Facts } from '../../common/display';
import { formatCents, formatDateTime } from '../../common/format';
import { orderValueParts, type OrderValueParts } from '../../common/order-total';
import { ErrorState, LoadingState } from '../../common/states';
import { TaxBreakdown, type EnrichedOrderPayload } from '../../common/tax-breakdown';
import { DeliveryCard } from './delivery-card';
import { Section } from './detail-section';
import { DispatchesTable, TrackingTable, TransfersTable } from './fulfillment-tables';
import { HistoryTimeline } from './history-timeline';
import { InvoiceSection } from './invoice/invoice-section';
import { JsonBlock } from './json-block';
import { RevealPersonalData } from '../personal-data/reveal-section';
import { StatusBadge } from './status-badge';
import { MARKETPLACE_NAMES, marketplaceOf, sponsorSplitOf, type SponsorSplit } from './order-origin';

type OrderDetail = Schemas['OrderDetailDto'];

/** Final statuses: the service refuses re-sends of these orders, and a redelivery of one is audited as such. */
const CLOSED_STATUSES: readonly OrderDetail['status'][] = ['DELIVERED', 'CANCELLED', 'REJECTED'];

type Outcome = { ok: true; message: string } | { ok: false; problem: ApiProblem };

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('orders');
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.orders.detail(id),
    queryFn: async () => unwrap(await api.GET('/api/admin/orders/{id}', { params: { path: { id } } })),
  });

  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    if (isProblem(query.error) && query.error.status === 404)
      return (
        <Stack gap="md" align="flex-start">
          <Title order={1}>{t('detail.notFound', { id })}</Title>
          <Text>{t('detail.notFoundHint')}</Text>
          <Anchor component={Link} to="/orders">
            {t('detail.back')}
          </Anchor>
        </Stack>
      );
    return (
      <Stack gap="md">
        <Anchor component={Link} to="/orders">
          {t('detail.back')}
        </Anchor>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  return <OrderDetailView order={query.data} onChanged={() => queryClient.invalidateQueries({ queryKey: queryKeys.orders.detail(id) })} />;
}

function OrderDetailView({ order, onChanged }: { order: OrderDetail; onChanged: () => Promise<void> }) {
  const { t } = useTranslation('orders');
  const { t: tc, i18n } = useTranslation();
  const { t: tInvoice } = useTranslation('invoice');
  const { t: tPersonal } = useTranslation('personalData');
  const canOpenFiscalGroups = useHasRole(FISCAL_GROUPS_ROLE);
  const canRevealPersonalData = useHasRole('admin');
  const queryClient = useQueryClient();
  const [confirming, { open: openConfirm, close: closeConfirm }] = useDisclosure(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const redeliver = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: order.id } } })),
    // Said from the answer's fields in the reader's language; the sentence (English) only for an older service.
    onSuccess: (data) =>
      setOutcome({
        ok: true,
        message:
          data.webhookStatusCode !== undefined && data.attempt !== undefined
            ? t('detail.redeliveredAnswer', { status: data.webhookStatusCode, attempt: data.attempt })
            : data.message,
      }),
    onError: (error) =>
      setOutcome({
        ok: false,
        problem: isProblem(error) ? error : { status: 0, message: error instanceof Error ? error.message : String(error) },
      }),
    onSettled: async () => {
      closeConfirm();
      await Promise.all([onChanged(), queryClient.invalidateQueries({ queryKey: queryKeys.orders.lists })]);
    },
  });

  // The receiver of a closed order may act on it again (a second invoice, a second delivery): the confirmation says so.
  const closed = CLOSED_STATUSES.includes(order.status);
  const enriched = isEnriched(order.enrichedPayload) ? order.enrichedPayload : null;
  const last = order.webhookLastResponse;

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Anchor component={Link} to="/orders" size="sm">
          {t('detail.back')}
        </Anchor>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Group gap="sm" align="center" style={{ minWidth: 0 }}>
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {t('detail.title', { orderId: order.orderId })}
            </Title>
            <StatusBadge status={order.status} />
          </Group>
          <Button onClick={openConfirm}>{t('detail.redeliver')}</Button>
        </Group>
        {outcome &&
          (outcome.ok ? (
            <Alert
              color="green"
              role="status"
              data-testid="redeliver-outcome"
              withCloseButton
              closeButtonLabel={tc('actions.close')}
              onClose={() => setOutcome(null)}
            >
              {t('detail.redelivered', { message: outcome.message })}
            </Alert>
          ) : (
            <Alert
              color="red"
              role="alert"
              data-testid="redeliver-outcome"
              withCloseButton
              closeButtonLabel={tc('actions.close')}
              onClose={() => setOutcome(null)}
            >
              {t('detail.redeliverFailed', { status: outcome.problem.status || '—', message: outcome.problem.message })}
            </Alert>
          ))}
      </Stack>

      <Modal
        opened={confirming}
        onClose={closeConfirm}
        title={closed ? t('detail.redeliverClosedTitle') : t('detail.redeliverTitle')}
        centered
      >
        <Stack gap="md">
          {closed && (
            <Alert color="red" data-testid="redeliver-closed-warning">
              {t('detail.redeliverClosedWarning', { orderId: order.orderId, status: t(`status.${order.status}`) })}
            </Alert>
          )}
          <Text>{t('detail.redeliverText', { orderId: order.orderId })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={closeConfirm} disabled={redeliver.isPending}>
              {tc('actions.cancel')}
            </Button>
            <Button color={closed ? 'red' : undefined} onClick={() => redeliver.mutate()} loading={redeliver.isPending}>
              {closed ? t('detail.redeliverClosedConfirm') : t('detail.redeliver')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Section id="overview" title={t('detail.overview')}>
        <Facts
          minColumn="11rem"
          items={[
            [t('detail.internalId'), <Code key="id">{order.id}</Code>],
            [t('detail.store'), order.storeId ?? '—'],
            [t('detail.source'), order.source ?? '—'],
            [t('detail.status'), <StatusBadge key="status" status={order.status} />],
            ...orderValueFacts(order.payload, t),
            [
              t('detail.attempts'),
              <span key="attempts" data-testid="webhook-attempts">
                {order.webhookAttempts}
              </span>,
            ],
            ...fiscalRevisionFacts(order.fiscalRevision, t, canOpenFiscalGroups),
            [t('detail.createdAt'), formatDateTime(order.createdAt)],
            [t('detail.updatedAt'), formatDateTime(order.updatedAt)],
            [
              t('detail.lastResponse'),
              last
                ? `${t('detail.lastResponseValue', { status: last.statusCode ?? t('detail.noAnswer'), duration: last.durationMs })}` +
                  // The network error is the service's English diagnostic (ECONNREFUSED...): shown in English only.
                  (last.error && i18n.language.startsWith('en') ? ` · ${last.error}` : '')
                : '—',
            ],
          ]}
        />
        {order.payloadOmitted && (
          <Alert color="yellow" mt="sm">
            {t(`detail.payloadOmitted.${order.payloadOmitted}`)}
          </Alert>
        )}
      </Section>

      <Section id="origin" title={t('detail.origin')}>
        <OriginFacts order={order} />
      </Section>

      <Section id="taxes" title={t('detail.taxes')}>
        {enriched ? (
          <TaxBreakdown payload={enriched} />
        ) : order.payloadOmitted ? (
          <Text c="gray.7">{t(`detail.payloadOmitted.${order.payloadOmitted}`)}</Text>
        ) : (
          <Text c="gray.7">{t('detail.noEnrichment')}</Text>
        )}
      </Section>

      {enriched && (
        <Section id="invoice" title={tInvoice('title')}>
          <InvoiceSection orderId={order.orderId} enrichedPayload={enriched} />
        </Section>
      )}

      <Section id="history" title={t('detail.history')}>
        <HistoryTimeline history={order.history} />
      </Section>

      <Section id="tracking" title={t('detail.tracking')}>
        <TrackingTable entries={order.tracking} />
      </Section>

      <Section id="transfers" title={t('detail.transfers')}>
        <TransfersTable entries={order.transfers} />
      </Section>

      <Section id="dispatches" title={t('detail.dispatches')}>
        <DispatchesTable entries={order.dispatches} />
      </Section>

      <Section id="deliveries" title={t('detail.deliveries')}>
        {order.deliveries.length === 0 ? (
          <Text c="gray.7">{t('detail.deliveriesEmpty')}</Text>
        ) : (
          <Stack gap="sm" data-testid="deliveries">
            {order.deliveries.map((delivery) => (
              <DeliveryCard key={delivery.attempt} delivery={delivery} />
            ))}
          </Stack>
        )}
      </Section>

      {canRevealPersonalData && (
        <Section id="personal-data" title={tPersonal('reveal.title')}>
          <RevealPersonalData orderDbId={order.id} />
        </Section>
      )}

      <Section id="payloads" title={t('detail.payloads')}>
        <Stack gap="xs">
          {order.payload ? (
            <JsonBlock name={t('detail.payload')} value={order.payload} fileName={`order-${order.orderId}-payload.json`} />
          ) : (
            <Text c="gray.7">
              {t('detail.payload')}: {t('detail.noPayload')}
            </Text>
          )}
          {order.enrichedPayload ? (
            <JsonBlock name={t('detail.enrichedPayload')} value={order.enrichedPayload} fileName={`order-${order.orderId}-enriched.json`} />
          ) : (
            <Text c="gray.7">
              {t('detail.enrichedPayload')}: {t('detail.noPayload')}
            </Text>
          )}
        </Stack>
      </Section>
    </Stack>
  );
}

/**
 * Where the order came from (its marketplace, or the platform itself), the marketplace's own order number, and who
 * gave its discounts: the store, or the platform or a third party that pays them back to the store.
 */
function OriginFacts({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const marketplace = marketplaceOf(order.source);
  const split = sponsorSplitOf(order.payload ?? order.enrichedPayload);
  const sides = (Object.keys(split) as (keyof SponsorSplit)[]).map((side): [string, ReactNode] => [
    t(`detail.sponsors.${side}`),
    <span key={side} data-testid={`sponsor-${side}`}>
      {formatCents(split[side])}
    </span>,
  ]);
  return (
    <Facts
      minColumn="11rem"
      items={[
        [
          t('detail.marketplace'),
          <span key="marketplace" data-testid="order-marketplace">
            {marketplace === 'platform' ? t('detail.platform') : MARKETPLACE_NAMES[marketplace]}
          </span>,
        ],
        [
          t('detail.marketplaceNumber'),
          <span key="number" data-testid="marketplace-order-number">
            {order.marketplaceOrderNumber ?? t('detail.noMarketplaceNumber')}
          </span>,
        ],
        ...(order.payloadOmitted
          ? []
          : sides.length > 0
            ? sides
            : [[t('detail.sponsorSplit'), t('detail.noDiscounts')] as [string, ReactNode]]),
      ]}
    />
  );
}

/** The least role that opens a fiscal group, as the navigation has it. */
const FISCAL_GROUPS_ROLE = SECTIONS.find((section) => section.to === '/fiscal-groups')!.role;

/**
 * Which revision of which fiscal group taxed the order, linked to that revision in the group's
 * Revisions tab for a role that can open it, as text for one that cannot (a link would lead to
 * "Not available for your role"); nothing when not taxed.
 */
function fiscalRevisionFacts(fiscal: OrderDetail['fiscalRevision'], t: TFunction<'orders'>, canOpen: boolean): [string, ReactNode][] {
  if (!fiscal.fiscalGroupId) return [];
  const { fiscalGroupId, revision } = fiscal;
  const target =
    revision === null
      ? `/fiscal-groups/${encodeURIComponent(fiscalGroupId)}`
      : `/fiscal-groups/${encodeURIComponent(fiscalGroupId)}?tab=revisions&revision=${revision}`;
  const text = revision === null ? t('detail.fiscalRevisionUnknown') : t('detail.fiscalRevisionLink', { revision });
  return [
    [
      t('detail.fiscalRevision'),
      canOpen ? (
        <Anchor key="revision" component={Link} to={target} data-testid="fiscal-revision">
          {text}
        </Anchor>
      ) : (
        <span key="revision" data-testid="fiscal-revision">
          {text}
        </span>
      ),
    ],
    ...(fiscal.taxInstant ? [[t('detail.taxInstant'), formatDateTime(fiscal.taxInstant)] as [string, ReactNode]] : []),
  ];
}

/** Each part of the order's value the payload states, named: the platform's total, the lines' sum, discounts, fee and charges. */
function orderValueFacts(payload: unknown, t: TFunction<'orders'>): [string, ReactNode][] {
  const parts = orderValueParts(payload);
  const facts = (Object.keys(parts) as (keyof OrderValueParts)[]).map((part): [string, ReactNode] => [
    t(`detail.valueParts.${part}`),
    <span key={part} data-testid={`order-value-${part}`}>
      {formatCents(parts[part])}
    </span>,
  ]);
  return facts.length > 0 ? facts : [[t('detail.orderValue'), formatCents(undefined)]];
}

function isEnriched(value: unknown): value is EnrichedOrderPayload {
  return typeof value === 'object' && value !== null && 'taxSummary' in value && typeof value.taxSummary === 'object';
}

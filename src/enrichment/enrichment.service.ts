import { orderClosed, orderStoreChanged } from './dto/enrichment-errors.dto.js';
import { IntakeActivity } from '../common/intake-activity.js';
import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { OrderUpsert, StoredOrderState, UpsertedOrder } from '../orders/orders.repository.js';
import { OrderIdTakeover } from '../orders/order-id-takeover.js';
import { mayTouchStore, type Actor } from '../common/actor.js';
import { storedUnderAnotherStore, storeNotAllowed } from '../orders/dto/store-errors.dto.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { isTerminal } from '../orders/order-status.js';
import { TAX_ENGINE, type CategoryIndex, type FiscalGroupSnapshot, type TaxEngine } from '../tax-engine/tax-engine.js';
import { fiscalConfigurationChanging, FiscalLookupService, MAX_REVISION_RETRIES } from '../fiscal-lookup/fiscal-lookup.service.js';
import { receiveOrder, withStoreId } from './order-payload.js';
import { amountPrecisionProblems } from './amount-precision.js';
import { taxInstantOf, withFiscalDocument } from './tax-instant.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ProfileRegistry } from './profiles/profile-registry.js';
import { jsonTextOf } from '../common/http/json-body.js';
import type { OrderProfile } from './dto/order-profile.dto.js';
import { PersonalDataKeys } from '../personal-data/personal-data-keys.js';
import { NfeItemsService } from '../fiscal-documents/nfe/nfe-items.service.js';
import type { NfeModel } from '../fiscal-documents/nfe/nfe-layout.js';

export interface Enrichment {
  orderId: string;
  /** Null on a dry run (nothing stored). */
  order: UpsertedOrder | null;
  /** The enriched payload as JSON text, serialized once for the database and the answer (callers need nothing else of it). */
  enrichedJson: string;
  /** Every warning, including those left out of the summary's list. */
  warningCount: number;
  /**
   * With the option `nfe`: the JSON member `"nfe":{...}` (the invoice's items), or `"nfeProblems":[...]` when the order
   * cannot be printed, computed from the same enrichment, for the answer and the forwarded body.
   */
  nfeMember?: string;
}

/** `json` (an object's JSON text) with `member` (`"name":value`) added last. */
export function withJsonMember(json: string, member: string | undefined): string {
  return member === undefined ? json : `${json.slice(0, -1)},${member}}`;
}

interface EnrichOptions {
  dryRun?: boolean;
  rawBody?: Buffer;
  profile?: OrderProfile;
  /** A forward's outbox, written by the taxed order's own upsert (`OrderUpsert.webhookOutboxInMs`). */
  webhookOutboxInMs?: number;
  /** Also answer the order's NF-e (55) or NFC-e (65) items. */
  nfe?: NfeModel;
}

/** Number.MAX_SAFE_INTEGER cents: the largest sum of cents a total holds exactly. */
const MAX_EXACT_TOTAL = '90071992547409.91';
/** Orders with more lines than this yield to the event loop between the steps of their enrichment. */
const LARGE_ORDER_LINES = 200;
const MAX_STORE_RETRIES = 3;

@Injectable()
export class EnrichmentService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lookup: FiscalLookupService,
    private readonly orders: OrdersRepository,
    @Inject(TAX_ENGINE) private readonly engine: TaxEngine,
    private readonly takeover: OrderIdTakeover,
    private readonly intake: IntakeActivity,
    private readonly profiles: ProfileRegistry,
    private readonly personalData: PersonalDataKeys,
    private readonly nfeItems: NfeItemsService,
  ) {}

  /**
   * Finds the store's fiscal group and the products' categories (two queries, in
   * parallel), computes the taxes and stores the order by `orderId`. Without a group
   * the order is stored as ENRICHMENT_FAILED (422), unless it is already stored with
   * taxes: a re-send never clears them (422, nothing stored). A re-send of a transferred
   * order is taxed for the store the order is now in. A dry run stores nothing and answers
   * what the same call would store, a re-send's current store and tax instant included.
   */
  enrich(body: unknown, actor: Actor, options: EnrichOptions = {}): Promise<Enrichment> {
    // Marked as intake, which previews give way to ("Expensive requests have a lane" in docs/api-decisions.md).
    return this.intake.during(() => this.enrichMapped(body, actor, options));
  }

  private async enrichMapped(body: unknown, actor: Actor, options: EnrichOptions): Promise<Enrichment> {
    // A marketplace's order is mapped before anything else: the store checks apply to the mapped store.id.
    const profile = this.profiles.find(options.profile);
    if (profile === undefined) return this.enrichOrder(body, actor, options, false);
    const document = profile.map(body);
    try {
      return await this.enrichOrder(document.order, actor, options, true);
    } catch (error) {
      // Answered in the document's own words: an error about the mapped order names the path in what was sent.
      throw error instanceof ApiError ? document.sourcePaths.translated(error) : error;
    }
  }

  private async enrichOrder(body: unknown, actor: Actor, options: EnrichOptions, mapped: boolean): Promise<Enrichment> {
    const received = receiveOrder(body);
    const { payload, orderId, storeId, source } = received;
    const prefix = received.wrapped ? 'payload.' : '';
    // See "Clients limited to stores" in docs/api-decisions.md: the store sent is checked here, the stored one by the upsert.
    if (!mayTouchStore(actor, storeId)) throw storeNotAllowed(orderId, storeId, prefix);
    // The received text is only stored as the payload's JSON (the amounts' written texts were kept by the body parser).
    // A mapped order is not the text received: its amounts are exact cents already.
    const rawText = mapped || !options.rawBody ? undefined : jsonTextOf(options.rawBody);
    const large = received.lineCount > LARGE_ORDER_LINES;
    if (received.lineCount > this.config.orderMaxLines) {
      throw new ApiError(
        ErrorCode.ORDER_TOO_LARGE,
        `The order has more than ${this.config.orderMaxLines} lines and selected modifiers (ORDER_MAX_LINES); nothing was computed or stored`,
        {
          details: [
            {
              field: `${received.wrapped ? 'payload.' : ''}order.products`,
              problem: `more than ${this.config.orderMaxLines} lines and selected modifiers`,
            },
          ],
        },
      );
    }
    const receivedAt = Date.now();
    const inexact = amountPrecisionProblems(body as Record<string, unknown>, received.wrapped ? ['payload'] : []);
    if (inexact.length > 0) throw ApiError.validation(inexact);
    // A re-send of an order that a transfer moved is taxed for its current store ("Re-sending an order" in docs/api-decisions.md);
    // the upsert refuses to overwrite it otherwise, and the loop tries again with that store.
    // See "Which revision taxes an order" in docs/fiscal-configuration-over-time.md; a re-send takes the stored one.
    let current = { payload, storeId, rewritten: false, taxInstant: taxInstantOf(payload.createdAt, receivedAt) };
    // No upsert refuses a dry run: it reads the stored order first and previews what the re-send would store
    // ("Re-sending an order" in docs/api-decisions.md). A store-limited client's dry run reads nothing stored, so that
    // it cannot tell another store's orderId from an unknown one (docs/access.md).
    if (options.dryRun && !actor.stores) {
      const state = await this.orders.storedState(orderId);
      const moved = this.movedStore(state, current.storeId, 1);
      if (moved !== undefined) current = { ...current, payload: withStoreId(payload, moved), storeId: moved, rewritten: true };
      if (state?.taxInstant) current = { ...current, taxInstant: state.taxInstant };
    }
    let revisionRetries = 0;
    for (let attempt = 1; ; attempt++) {
      // At the root, the received text is the payload's JSON (jsonb normalizes it the same way).
      const payloadJson = () =>
        !received.wrapped && !current.rewritten && rawText !== undefined ? rawText : JSON.stringify(current.payload);
      const [inForce, categories] = await Promise.all([
        current.storeId ? this.lookup.groupAt(current.storeId, current.taxInstant) : Promise.resolve(undefined),
        // A transfer rewrites the store only: the products are the received ones.
        this.lookup.categoriesFor(received.productIds),
      ]);

      const group = inForce?.group;
      if (!group) {
        const stored = options.dryRun
          ? null
          : await this.store(
              {
                orderId,
                status: 'ENRICHMENT_FAILED',
                payloadJson: payloadJson(),
                enrichedPayloadJson: null,
                storeId: current.storeId,
                source,
                fiscalGroupId: null,
                taxInstant: current.taxInstant,
                personalDataKeys: this.personalData.keysTextOf(current.payload),
              },
              actor,
            );
        const missing = current.storeId
          ? `No fiscal group holds store "${current.storeId}"`
          : 'The order has no store.id, so no fiscal group can be found';
        if (options.dryRun) throw new ApiError(ErrorCode.FISCAL_GROUP_NOT_FOUND, missing);
        if (stored) {
          const outcome =
            stored.status === 'ENRICHMENT_FAILED'
              ? 'the order was stored as ENRICHMENT_FAILED'
              : `the order was stored without taxes and keeps its status ${stored.status}`;
          throw new ApiError(ErrorCode.FISCAL_GROUP_NOT_FOUND, `${missing}; ${outcome}`);
        }
        const state = await this.orders.storedState(orderId);
        if (state && !mayTouchStore(actor, state.storeId)) throw storedUnderAnotherStore(orderId, prefix);
        if (state && isTerminal(state.status)) throw orderClosed(orderId, state.status, received.wrapped);
        const moved = this.movedStore(state, current.storeId, attempt);
        if (moved !== undefined) {
          current = { ...current, payload: withStoreId(payload, moved), storeId: moved, rewritten: true };
          continue;
        }
        throw new ApiError(
          ErrorCode.FISCAL_GROUP_NOT_FOUND,
          `${missing}; nothing was stored: order ${orderId} keeps its taxes${state?.fiscalGroupId ? ` from fiscal group ${state.fiscalGroupId}` : ''} and its status`,
        );
      }

      const { enrichedJson, warningCount, nfeMember } = await this.taxed(
        group,
        categories,
        current.payload,
        inForce.revision,
        current.taxInstant,
        large,
        prefix,
        options.nfe,
      );
      if (options.dryRun) return { orderId, order: null, enrichedJson, warningCount, nfeMember };
      const order = await this.store(
        {
          orderId,
          status: 'ENRICHED',
          payloadJson: payloadJson(),
          enrichedPayloadJson: enrichedJson,
          storeId: current.storeId,
          source,
          fiscalGroupId: group.id,
          taxInstant: current.taxInstant,
          // Written by the order's own statement (docs/personal-data.md); the enriched payload adds no personal value.
          personalDataKeys: this.personalData.keysTextOf(current.payload),
          webhookOutboxInMs: options.webhookOutboxInMs,
        },
        actor,
      );
      if (!order) {
        const state = await this.orders.storedState(orderId);
        if (state && !mayTouchStore(actor, state.storeId)) throw storedUnderAnotherStore(orderId, prefix);
        // "Closed orders are closed" in docs/api-decisions.md: the upsert's guard refused it, and a final status never changes.
        if (state && isTerminal(state.status)) throw orderClosed(orderId, state.status, received.wrapped);
        const moved = this.movedStore(state, current.storeId, attempt);
        // Taxed again at the instant of the first receipt ("Which revision taxes an order").
        const firstInstant =
          state?.taxInstant && state.taxInstant.getTime() !== current.taxInstant.getTime() ? state.taxInstant : undefined;
        if (moved === undefined && !firstInstant && !this.storeGuardHeld(state, current.storeId)) {
          // Neither a transfer nor the first receipt's instant: the revision that taxed it is no longer the one the
          // revision table has in force at its tax instant (written or cancelled meanwhile; see "Which revision taxes an
          // order" in docs/fiscal-configuration-over-time.md). Read the revisions again and tax it again.
          if (++revisionRetries > MAX_REVISION_RETRIES) throw fiscalConfigurationChanging(orderId);
          this.lookup.invalidate();
          continue;
        }
        if (attempt < MAX_STORE_RETRIES && firstInstant) current = { ...current, taxInstant: firstInstant };
        if (moved !== undefined) current = { ...current, payload: withStoreId(payload, moved), storeId: moved, rewritten: true };
        else if (!firstInstant || attempt >= MAX_STORE_RETRIES) throw orderStoreChanged(orderId, current.storeId, received.wrapped);
        continue;
      }
      return { orderId, order, enrichedJson, warningCount, nfeMember };
    }
  }

  /**
   * Stores the order; when the platform's write is held back by an order a store-limited client stored first under
   * another store, that order moves aside and the platform's order takes the id (`OrderIdTakeover`).
   */
  private async store(order: OrderUpsert, actor: Actor): Promise<UpsertedOrder | null> {
    const stored = await this.orders.upsert(order, actor);
    if (stored || actor.stores) return stored;
    const taken = await this.takeover.take(order.orderId, order.storeId, actor, (manager) => this.orders.upsertIn(manager, order, actor));
    if (taken) return taken;
    // Another send of the platform's may have moved it meanwhile: this one is then a re-send of the platform's order.
    return this.orders.upsert(order, actor);
  }

  /** The order taxed, as the text to store and answer; the engine's objects stay inside this call. */
  private async taxed(
    group: FiscalGroupSnapshot,
    categories: CategoryIndex,
    payload: Record<string, unknown>,
    revision: number | null,
    taxInstant: Date,
    large: boolean,
    prefix: string,
    nfe: NfeModel | undefined,
  ): Promise<{ enrichedJson: string; warningCount: number; nfeMember?: string }> {
    const result = this.engine.enrich({ group, categories, payload });
    // See "Order totals stay exact" in docs/api-decisions.md.
    if (result.totalsBeyondSafeCents) {
      throw new ApiError(
        ErrorCode.ORDER_TOO_LARGE,
        `The order's amounts add up to more than ${MAX_EXACT_TOTAL}, beyond which its totals cannot be exact; nothing was stored`,
        { details: [{ field: `${prefix}order.products`, problem: `its amounts add up to more than ${MAX_EXACT_TOTAL}` }] },
      );
    }
    withFiscalDocument(result, revision, taxInstant);
    // A large order is several milliseconds of work at each step: let other requests in between.
    if (large) await setImmediatePromise();
    const enrichedJson = JSON.stringify(result.payload);
    if (large) await setImmediatePromise();
    if (nfe === undefined) return { enrichedJson, warningCount: result.warningCount };
    // Read from the enrichment just built, which it leaves as it is: the items print its figures.
    const outcome = this.nfeItems.itemsOf(result.payload, { model: nfe, freightAs: 'vFrete' });
    const nfeMember = outcome.items ? `"nfe":${JSON.stringify(outcome.items)}` : `"nfeProblems":${JSON.stringify(outcome.problems)}`;
    return { enrichedJson, warningCount: result.warningCount, nfeMember };
  }

  /** Whether the stored order's store guard (a transfer moved it elsewhere) explains a refused upsert. */
  private storeGuardHeld(state: StoredOrderState | undefined, storeId: string | null): boolean {
    return !!state?.transferred && state.storeId !== storeId;
  }

  /** The store a transfer moved the stored order to, when it is not `storeId` (a few tries: transfers may keep moving it). */
  private movedStore(state: StoredOrderState | undefined, storeId: string | null, attempt: number): string | undefined {
    if (!state?.transferred || state.storeId === null || state.storeId === storeId || attempt >= MAX_STORE_RETRIES) return undefined;
    return state.storeId;
  }
}

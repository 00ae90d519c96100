import { ORDER_COUNT_FOLD_LOCK_KEY } from '../../migrations/1763760000000-OrderListIndexes.js';
import { FISCAL_GROUP_REVISIONS_LOCK_CLASS } from '../../migrations/1763957000000-RevisionInForceAtTaxInstant.js';
import { ORDER_TAX_FOLD_LOCK_KEY } from '../../migrations/1763970500000-OrderTaxHours.js';
import { ADVISORY_LOCKS } from './advisory-locks.js';

describe('the advisory-lock registry', () => {
  it('gives every lock its own key', () => {
    const keys = Object.values(ADVISORY_LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the keys older versions of the service take, so that old and new instances exclude each other', () => {
    // The numbers the releases before this registry used, written in their files; never change one.
    expect(ADVISORY_LOCKS).toEqual({
      migrations: 7_310_001,
      demoDataSeed: 7_310_002,
      channelsStoresReplacement: 7_310_008,
      orderCountFold: 7_310_060,
      bootstrapAdmin: 7_310_070,
      statusAliasesReplacement: 7_310_080,
      fiscalGroupRevisions: 7_310_090,
      orderTaxFold: 7_310_100,
      webhookDeliveryPrune: 7_318_004_211,
      auditRetention: 7_318_004_227,
      personalDataRetention: 7_318_004_251,
      personalDataBackfill: 7_318_004_263,
    });
  });

  it('names the key the SQL function fold_order_tax_hours() takes itself', () => {
    expect(ADVISORY_LOCKS.orderTaxFold).toBe(ORDER_TAX_FOLD_LOCK_KEY);
  });

  it('names the key the SQL function fold_order_counts() takes itself', () => {
    expect(ADVISORY_LOCKS.orderCountFold).toBe(ORDER_COUNT_FOLD_LOCK_KEY);
  });

  it('names the first key the SQL function fiscal_revision_taxes_at() shares', () => {
    expect(ADVISORY_LOCKS.fiscalGroupRevisions).toBe(FISCAL_GROUP_REVISIONS_LOCK_CLASS);
  });

  it('keeps every key within PostgreSQL bigint, as pg_advisory_lock(bigint) takes it', () => {
    for (const key of Object.values(ADVISORY_LOCKS)) expect(Number.isSafeInteger(key) && key > 0).toBe(true);
  });
});

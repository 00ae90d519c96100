/**
 * Every PostgreSQL advisory-lock key the service takes, and what it keeps apart. A key's number
 * never changes: during a rolling deploy instances of the old and the new version run side by side,
 * and only the same number keeps them from doing the same work at once. A new lock gets a new
 * number here; session locks (`pg_advisory_lock`) and transaction locks (`pg_advisory_xact_lock`)
 * on one key exclude each other, so a job may move from one kind to the other.
 */
export const ADVISORY_LOCKS = {
  /** Session lock around the migrations: instances starting together migrate one after the other. */
  migrations: 7_310_001,
  /** Transaction lock of the demo data seeding (SEED_DEMO_DATA): two starting instances seed once. */
  demoDataSeed: 7_310_002,
  /** Transaction lock of a channels-stores replacement: replacements run one after the other. */
  channelsStoresReplacement: 7_310_008,
  /**
   * Taken by the SQL functions `fold_order_counts()` and `fold_order_id_fragment_counts()` themselves
   * (a transaction try-lock, migrations OrderListIndexes, DashboardStats and OrderIdFragmentCounts):
   * one instance folds the order counters at a time.
   */
  orderCountFold: 7_310_060,
  /** Transaction lock of the development admin's creation: two instances starting on an empty database create one. */
  bootstrapAdmin: 7_310_070,
  /**
   * Transaction lock of a status-alias table replacement: replacements run one after the other (row locks lock
   * nothing on an empty table, and two replacements would insert the same labels).
   */
  statusAliasesReplacement: 7_310_080,
  /**
   * First key of the two-key transaction lock on one fiscal group's revisions (second key: `hashtext` of the group id;
   * migration RevisionInForceAtTaxInstant): revision writes and cancellations hold it, an order's storing statement
   * shares it. The two-key form never meets a one-key lock.
   */
  fiscalGroupRevisions: 7_310_090,
  /**
   * Taken by the SQL function `fold_order_tax_hours()` itself (a transaction try-lock, migration OrderTaxHours): one
   * instance folds the tax report's hourly summaries at a time.
   */
  orderTaxFold: 7_310_100,
  /** The webhook delivery log pruning job: one instance prunes at a time. */
  webhookDeliveryPrune: 7_318_004_211,
  /** The audit log's retention job: one instance deletes old events at a time. */
  auditRetention: 7_318_004_227,
  /** The personal-data retention job: one instance erases old orders' personal data at a time. */
  personalDataRetention: 7_318_004_251,
  /** The personal-data backfill job: one instance fills the lookup keys of older orders at a time. */
  personalDataBackfill: 7_318_004_263,
} as const;

export type AdvisoryLockName = keyof typeof ADVISORY_LOCKS;

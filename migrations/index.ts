import { Foundation1763710000000 } from './1763710000000-Foundation.js';
import { FiscalConfiguration1763720000000 } from './1763720000000-FiscalConfiguration.js';
import { Orders1763730000000 } from './1763730000000-Orders.js';
import { Channels1763740000000 } from './1763740000000-Channels.js';
import { FiscalChangeNotifications1763745000000 } from './1763745000000-FiscalChangeNotifications.js';
import { Webhooks1763750000000 } from './1763750000000-Webhooks.js';
import { OrderListIndexes1763760000000 } from './1763760000000-OrderListIndexes.js';
import { Fulfillment1763770000000 } from './1763770000000-Fulfillment.js';
import { OrderTransferredAt1763780000000 } from './1763780000000-OrderTransferredAt.js';
import { StatusVocabulary1763790000000 } from './1763790000000-StatusVocabulary.js';
import { WebhookDeliveryRetention1763800000000 } from './1763800000000-WebhookDeliveryRetention.js';
import { RateLimitCounter1763810000000 } from './1763810000000-RateLimitCounter.js';
import { DashboardStats1763820000000 } from './1763820000000-DashboardStats.js';
import { OrderPayloadBytes1763830000000 } from './1763830000000-OrderPayloadBytes.js';
import { CounterKeys1763845000000 } from './1763845000000-CounterKeys.js';
import { AuditEvents1763850000000 } from './1763850000000-AuditEvents.js';
import { ClientStores1763870000000 } from './1763870000000-ClientStores.js';
import { People1763880000000 } from './1763880000000-People.js';
import { FiscalGroupStoreList1763846000000 } from './1763846000000-FiscalGroupStoreList.js';
import { FiscalGroupRevisions1763890000000 } from './1763890000000-FiscalGroupRevisions.js';
import { ProductCategoryHistory1763896000000 } from './1763896000000-ProductCategoryHistory.js';
import { OrderIdFragmentCounts1763900000000 } from './1763900000000-OrderIdFragmentCounts.js';
import { OrderCreatedIndexCovering1763901000000 } from './1763901000000-OrderCreatedIndexCovering.js';
import { OrderWebhookId1763910000000 } from './1763910000000-OrderWebhookId.js';
import { OrderIdSearchPendingList1763920000000 } from './1763920000000-OrderIdSearchPendingList.js';
import { OrderDocumentsLz41763930000000 } from './1763930000000-OrderDocumentsLz4.js';
import { OrderCountResetWaitsForFold1763940000000 } from './1763940000000-OrderCountResetWaitsForFold.js';
import { AppendOnlyRefusesTruncate1763953000000 } from './1763953000000-AppendOnlyRefusesTruncate.js';
import { OrderIdReclaim1763956000000 } from './1763956000000-OrderIdReclaim.js';
import { OrderPersonalDataKeys1763961000000 } from './1763961000000-OrderPersonalDataKeys.js';
import { OrderTriggersPerStatement1763962000000 } from './1763962000000-OrderTriggersPerStatement.js';
import { OrderMarketplaceNumber1763967300000 } from './1763967300000-OrderMarketplaceNumber.js';
import { OrderWebhookOutbox1763968000000 } from './1763968000000-OrderWebhookOutbox.js';
import { OrderTaxHours1763970500000 } from './1763970500000-OrderTaxHours.js';
import { TwoFactorSignIn1763975000000 } from './1763975000000-TwoFactorSignIn.js';
import { RevisionInForceAtTaxInstant1763957000000 } from './1763957000000-RevisionInForceAtTaxInstant.js';
import { RevisionCheckPerStatement1763957500000 } from './1763957500000-RevisionCheckPerStatement.js';

/**
 * Every migration. TypeORM runs the pending ones sorted by the timestamp that ends the class name,
 * whatever their place here; the list is kept in that order too (a test checks it and that every
 * file of migrations/ is listed). A new migration takes a later timestamp than every landed one and
 * is appended; a landed one is never edited.
 */
export const ALL_MIGRATIONS = [
  Foundation1763710000000,
  FiscalConfiguration1763720000000,
  Orders1763730000000,
  Channels1763740000000,
  FiscalChangeNotifications1763745000000,
  Webhooks1763750000000,
  OrderListIndexes1763760000000,
  Fulfillment1763770000000,
  OrderTransferredAt1763780000000,
  StatusVocabulary1763790000000,
  WebhookDeliveryRetention1763800000000,
  RateLimitCounter1763810000000,
  DashboardStats1763820000000,
  OrderPayloadBytes1763830000000,
  CounterKeys1763845000000,
  FiscalGroupStoreList1763846000000,
  AuditEvents1763850000000,
  ClientStores1763870000000,
  People1763880000000,
  FiscalGroupRevisions1763890000000,
  ProductCategoryHistory1763896000000,
  OrderIdFragmentCounts1763900000000,
  OrderCreatedIndexCovering1763901000000,
  OrderWebhookId1763910000000,
  OrderIdSearchPendingList1763920000000,
  OrderDocumentsLz41763930000000,
  OrderCountResetWaitsForFold1763940000000,
  AppendOnlyRefusesTruncate1763953000000,
  OrderIdReclaim1763956000000,
  RevisionInForceAtTaxInstant1763957000000,
  RevisionCheckPerStatement1763957500000,
  OrderPersonalDataKeys1763961000000,
  OrderTriggersPerStatement1763962000000,
  OrderMarketplaceNumber1763967300000,
  OrderWebhookOutbox1763968000000,
  OrderTaxHours1763970500000,
  TwoFactorSignIn1763975000000,
];

/**
 * Data factories of the integration tier: each inserts rows through the entities with sensible
 * defaults, any column overridable, and returns what was stored. They never go through a service
 * or HTTP, so a test states exactly the rows it starts from.
 */
export { apiClient, type ApiClientOverrides } from './api-client.factory.js';
export { fiscalGroup, taxMatrixWith, type FiscalGroupOverrides } from './fiscal-group.factory.js';
export { orderDispatch, orderTracking, orderTransfer } from './fulfillment.factory.js';
export { order, orderPayload, type OrderOverrides } from './order.factory.js';
export { productCategory } from './product-category.factory.js';
export { nextNumber, type Db } from './sequence.js';
export { statusAlias } from './status-alias.factory.js';
export { configuredStore } from './store.factory.js';
export { retryJob, webhookDelivery, type RetryJobOverrides, type RetryJobRow, type WebhookDeliveryOverrides } from './webhook.factory.js';

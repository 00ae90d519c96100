import { isPickupOrder } from './pickup.js';

describe('isPickupOrder', () => {
  it.each([
    ['order.type PICKUP', { order: { type: 'PICKUP' } }],
    ['order.type pickup (lower case)', { order: { type: 'pickup' } }],
    ['order.deliveryType TAKEOUT', { order: { deliveryType: 'TAKEOUT' } }],
    ['order.deliveryType Take_Away', { order: { deliveryType: 'Take_Away' } }],
    ['root deliveryType take_away', { deliveryType: 'take_away' }],
    ['order.pickup true', { order: { pickup: true } }],
    ['a pickup type beside a delivery one', { deliveryType: 'DELIVERY', order: { type: 'TAKEOUT' } }],
  ])('is true for %s', (_label, payload) => {
    expect(isPickupOrder(payload)).toBe(true);
  });

  it.each([
    ['no type at all', {}],
    ['order.type DELIVERY', { order: { type: 'DELIVERY' } }],
    ['root deliveryType DELIVERY', { deliveryType: 'DELIVERY' }],
    ['order.pickup "true" (text)', { order: { pickup: 'true' } }],
    ['order.pickup false', { order: { pickup: false, type: 'DELIVERY' } }],
    ['a root pickup flag (not a rule)', { pickup: true }],
    ['root type PICKUP (not a rule)', { type: 'PICKUP' }],
    ['TAKE AWAY with a space', { order: { type: 'TAKE AWAY' } }],
    ['order as an array', { order: [{ type: 'PICKUP' }] }],
  ])('is false for %s', (_label, payload) => {
    expect(isPickupOrder(payload as Record<string, unknown>)).toBe(false);
  });
});

import { parseIsoDateTime } from '../common/iso-date-time.js';
import { containsPattern, orderCountQuery, orderPageQuery, type OrderListFilter } from './order-list.sql.js';

const us = (text: string) => parseIsoDateTime(text)! / 1000n;

describe('containsPattern', () => {
  it('escapes %, _ and the escape character itself', () => {
    expect(containsPattern('50%_off\\x')).toBe('%50\\%\\_off\\\\x%');
    expect(containsPattern('abc')).toBe('%abc%');
  });
});

describe('orderPageQuery', () => {
  it('binds every value and pages by LIMIT / OFFSET over the ids', () => {
    const query = orderPageQuery({ storeId: "s'1", orderId: 'x%', minWebhookAttempts: 3 }, 3, 50);
    expect(query.sql).toContain('ORDER BY created_at DESC, id DESC LIMIT $4::integer OFFSET $5::bigint');
    expect(query.sql).not.toContain("s'1");
    expect(query.params).toEqual(["s'1", '%x\\%%', 3, 50, '100']);
  });
});

describe('orderCountQuery', () => {
  const strategy = (filter: OrderListFilter) => orderCountQuery(filter).strategy;

  it('sums the per-day counters for source, status and creation time', () => {
    expect(strategy({})).toBe('counters');
    expect(strategy({ status: 'DELIVERED', source: 'ifood' })).toBe('counters');
    expect(strategy({ createdFromUs: us('2026-11-01T00:00:00Z') })).toBe('counters');
  });

  it('counts in orders for the other filters and for ranges without a whole UTC day', () => {
    expect(strategy({ storeId: 'store-1' })).toBe('orders');
    expect(strategy({ orderId: 'abc' })).toBe('orders');
    expect(strategy({ minWebhookAttempts: 3 })).toBe('orders');
    expect(strategy({ maxWebhookAttempts: 0 })).toBe('orders');
    // 10:00 to 05:00 next day: no whole day inside.
    expect(strategy({ createdFromUs: us('2026-11-01T10:00:00Z'), createdToUs: us('2026-11-02T05:00:00Z') })).toBe('orders');
    expect(strategy({ createdFromUs: us('2026-11-01T00:00:00.000001Z'), createdToUs: us('2026-11-01T23:59:59.999999Z') })).toBe('orders');
  });

  it('sums the per-fragment counters for an orderId fragment of 1 or 2 ASCII characters alone', () => {
    for (const orderId of ['a', 'd0', '%_', '\\']) expect(strategy({ orderId })).toBe('counters');
    const query = orderCountQuery({ orderId: 'D%' });
    expect(query.sql).not.toContain('FROM orders');
    // The folded totals by lower-cased fragment, the unfolded orders by the list's own ILIKE pattern.
    expect(query.params).toEqual(['D%', '%D\\%%']);
  });

  it('counts in orders for a fragment of 3 characters, a non-ASCII one, or one with another filter', () => {
    expect(strategy({ orderId: 'abc' })).toBe('orders');
    expect(strategy({ orderId: 'é' })).toBe('orders');
    expect(strategy({ orderId: 'ab', storeId: 'store-1' })).toBe('orders');
    expect(strategy({ orderId: 'ab', status: 'DELIVERED' })).toBe('orders');
    expect(strategy({ orderId: 'ab', createdFromUs: us('2026-11-01T00:00:00Z') })).toBe('orders');
  });

  it('reads only counters for a range of whole days', () => {
    const query = orderCountQuery({ createdFromUs: us('2026-11-01T00:00:00Z'), createdToUs: us('2026-11-02T23:59:59.999999Z') });
    expect(query.strategy).toBe('counters');
    expect(query.sql).not.toContain('FROM orders');
    expect(query.params).toEqual(['2026-11-01', '2026-11-03']);
  });

  it('adds the partial days at both ends, counted in orders', () => {
    const query = orderCountQuery({
      status: 'DELIVERED',
      createdFromUs: us('2026-10-31T22:00:00-03:00'),
      createdToUs: us('2026-11-03T12:00:00.5Z'),
    });
    expect(query.strategy).toBe('counters');
    // Whole days 2026-11-02 .. 2026-11-02; left end [11-01 01:00, 11-02 00:00), right end [11-03 00:00, 11-03 12:00:00.5].
    expect(query.params).toEqual([
      'DELIVERED',
      '2026-11-02',
      '2026-11-03',
      '2026-11-01T01:00:00.000000Z',
      '2026-11-02T00:00:00.000000Z',
      '2026-11-03T00:00:00.000000Z',
      '2026-11-03T12:00:00.500000Z',
    ]);
    expect(query.sql.match(/FROM orders/g)).toHaveLength(2);
    expect(query.sql).toContain('created_at >= $4::timestamptz AND created_at < $5::timestamptz');
    expect(query.sql).toContain('created_at >= $6::timestamptz AND created_at <= $7::timestamptz');
  });

  it('takes one bound alone', () => {
    const from = orderCountQuery({ createdFromUs: us('2026-11-01T06:00:00Z') });
    expect(from.params).toEqual(['2026-11-02', '2026-11-01T06:00:00.000000Z', '2026-11-02T00:00:00.000000Z']);
    const to = orderCountQuery({ createdToUs: us('2026-11-01T06:00:00Z') });
    expect(to.params).toEqual(['2026-11-01', '2026-11-01T00:00:00.000000Z', '2026-11-01T06:00:00.000000Z']);
  });
});

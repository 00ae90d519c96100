import {
  canTransition,
  INTAKE_STATUSES,
  isOrderStatus,
  isTerminal,
  ORDER_STATUSES,
  TERMINAL_STATUSES,
  type OrderStatus,
} from './order-status.js';

/**
 * The expected verdict of every (from, to) pair, written out by hand from "Order statuses" in docs/api-decisions.md.
 * `Y` allowed change, `=` the current status again (accepted, nothing changes), `-` refused (409).
 * Columns are in this order:
 */
const COLUMNS: OrderStatus[] = [
  'RECEIVED',
  'ENRICHED',
  'ENRICHMENT_FAILED',
  'FORWARDED',
  'FORWARD_FAILED',
  'ACCEPTED',
  'IN_PREPARATION',
  'READY',
  'DISPATCHED',
  'DELIVERED',
  'CANCELLED',
  'REJECTED',
];

// prettier-ignore
const EXPECTED: Record<OrderStatus, string> = {
  //                  RCV ENR EFL FWD FFL ACC PRE RDY DSP DLV CAN REJ
  RECEIVED:          '=   Y   Y   Y   Y   Y   Y   Y   Y   Y   Y   Y',
  ENRICHED:          'Y   =   Y   Y   Y   Y   Y   Y   Y   Y   Y   Y',
  ENRICHMENT_FAILED: 'Y   Y   =   Y   Y   Y   Y   Y   Y   Y   Y   Y',
  FORWARDED:         'Y   Y   Y   =   Y   Y   Y   Y   Y   Y   Y   Y',
  FORWARD_FAILED:    'Y   Y   Y   Y   =   Y   Y   Y   Y   Y   Y   Y',
  ACCEPTED:          '-   -   -   -   -   =   Y   Y   Y   Y   Y   Y',
  IN_PREPARATION:    '-   -   -   -   -   -   =   Y   Y   Y   Y   Y',
  READY:             '-   -   -   -   -   -   -   =   Y   Y   Y   Y',
  DISPATCHED:        '-   -   -   -   -   -   -   -   =   Y   Y   Y',
  DELIVERED:         '-   -   -   -   -   -   -   -   -   =   -   -',
  CANCELLED:         '-   -   -   -   -   -   -   -   -   -   =   -',
  REJECTED:          '-   -   -   -   -   -   -   -   -   -   -   =',
};

const pairs: Array<[OrderStatus, OrderStatus, string]> = COLUMNS.flatMap((from) => {
  const marks = EXPECTED[from].split(/\s+/);
  return COLUMNS.map((to, index) => [from, to, marks[index]!] as [OrderStatus, OrderStatus, string]);
});

function verdictMark(from: OrderStatus, to: OrderStatus): string {
  const verdict = canTransition(from, to);
  if (!verdict.allowed) return '-';
  return verdict.changes ? 'Y' : '=';
}

describe('order status machine', () => {
  it('has a table row and column for exactly the documented statuses', () => {
    expect([...COLUMNS].sort()).toEqual([...ORDER_STATUSES].sort());
    expect(Object.keys(EXPECTED).sort()).toEqual([...ORDER_STATUSES].sort());
    for (const from of COLUMNS) expect([from, EXPECTED[from].split(/\s+/).length]).toEqual([from, COLUMNS.length]);
    expect(pairs).toHaveLength(144);
  });

  it.each(pairs)('%s → %s is %s', (from, to, mark) => {
    expect(verdictMark(from, to)).toBe(mark);
  });

  it('names both statuses when it refuses a move', () => {
    for (const [from, to, mark] of pairs) {
      if (mark !== '-') continue;
      const verdict = canTransition(from, to);
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) {
        expect(verdict.reason).toContain(from);
        expect(verdict.reason).toContain(to);
      }
    }
  });

  it('knows the terminal and intake statuses and the valid values', () => {
    expect(TERMINAL_STATUSES.filter(isTerminal)).toEqual(['DELIVERED', 'CANCELLED', 'REJECTED']);
    expect(ORDER_STATUSES.filter(isTerminal)).toEqual(['DELIVERED', 'CANCELLED', 'REJECTED']);
    expect(INTAKE_STATUSES).toEqual(['RECEIVED', 'ENRICHED', 'ENRICHMENT_FAILED', 'FORWARDED', 'FORWARD_FAILED']);
    expect(ORDER_STATUSES.every(isOrderStatus)).toBe(true);
    for (const value of ['accepted', 'Accepted', ' ACCEPTED', 'PENDING', '', null, undefined, 1]) expect(isOrderStatus(value)).toBe(false);
  });
});

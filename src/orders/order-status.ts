/** Every status an order can have, in lifecycle order ("Order statuses" in docs/api-decisions.md). */
export const ORDER_STATUSES = [
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
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Before the store works the order: intake statuses may follow each other in any order. */
export const INTAKE_STATUSES: readonly OrderStatus[] = ['RECEIVED', 'ENRICHED', 'ENRICHMENT_FAILED', 'FORWARDED', 'FORWARD_FAILED'];
export const TERMINAL_STATUSES: readonly OrderStatus[] = ['DELIVERED', 'CANCELLED', 'REJECTED'];
/** Intake statuses that only the service gives an order (enrichment's and forwarding's outcomes): never a received order's first status. */
export const SERVICE_OWNED_STATUSES: readonly OrderStatus[] = ['ENRICHED', 'ENRICHMENT_FAILED', 'FORWARDED', 'FORWARD_FAILED'];

/** Lifecycle ranks; CANCELLED and REJECTED sit outside the ladder. */
const RANK: Partial<Record<OrderStatus, number>> = {
  RECEIVED: 0,
  ENRICHED: 0,
  ENRICHMENT_FAILED: 0,
  FORWARDED: 0,
  FORWARD_FAILED: 0,
  ACCEPTED: 1,
  IN_PREPARATION: 2,
  READY: 3,
  DISPATCHED: 4,
  DELIVERED: 5,
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * `allowed` with `changes: false` is a repeat of the current status: nothing changes and
 * no history row is written (a point-of-sale or carrier retry answers 200, not 409).
 */
export type TransitionVerdict = { allowed: true; changes: boolean } | { allowed: false; reason: string };

/**
 * The one rule for status changes: forward to any higher rank (skipping
 * allowed), or between intake statuses; CANCELLED and REJECTED from any non-terminal
 * status; nothing out of DELIVERED, CANCELLED or REJECTED. Sending the current status
 * again is not a change and is always accepted.
 */
export function canTransition(from: OrderStatus, to: OrderStatus): TransitionVerdict {
  if (from === to) return { allowed: true, changes: false };
  if (isTerminal(from)) return { allowed: false, reason: `cannot change from ${from} to ${to}: ${from} is a final status` };
  if (to === 'CANCELLED' || to === 'REJECTED') return { allowed: true, changes: true };
  const fromRank = RANK[from]!;
  const toRank = RANK[to]!;
  if (toRank > fromRank) return { allowed: true, changes: true };
  if (toRank === 0 && fromRank === 0) return { allowed: true, changes: true };
  return { allowed: false, reason: `cannot change from ${from} back to ${to}` };
}

/**
 * `canTransition` as an SQL expression, for the statements that set a status in the same
 * statement as their other writes (the order upsert, a forward attempt): the status named by
 * `target` (an SQL expression, e.g. `$3` or `EXCLUDED.status`) where the machine allows the
 * move from `column`, else `column` unchanged. Generated from the machine, so it cannot drift
 * from it; `targets` are the statuses `target` can hold.
 */
export function statusAfterSql(column: string, target: string, targets: readonly OrderStatus[]): string {
  const quoted = (status: OrderStatus) => `'${status}'`;
  const cases = targets.map((to) => {
    const from = ORDER_STATUSES.filter((status) => canTransition(status, to).allowed);
    return `WHEN ${target}::text = ${quoted(to)} AND ${column} IN (${from.map(quoted).join(', ')}) THEN ${quoted(to)}`;
  });
  return `CASE ${cases.join(' ')} ELSE ${column} END`;
}

import type { Cents } from './money.js';

/**
 * The split (rateio) of an order-level amount over the items of an invoice, in integer cents:
 * each item with an amount > 0 gets round(amount × item / total) half-up, and the last of them
 * takes the remainder, so that the shares add up exactly to the amount.
 *
 * With `caps` (a discount: no item may go below 0) a share is at most its item's cap; what a
 * share cannot take moves to the next item in payload order (around to the first), and the
 * amount itself is first capped at the sum of the caps. A remainder that rounding made negative
 * (ties rounded up on every other item) is taken back the same way, so no share is negative.
 */
export interface Split {
  /** One share per item, in the items' order; 0 for items with an amount of 0. */
  shares: Cents[];
  /** The part of the amount no item could take: more than the caps allow, or no item with an amount. */
  unplaced: Cents;
}

/**
 * `amount` and every weight are non-negative safe integers (cents: the engine refuses amounts above
 * Number.MAX_SAFE_INTEGER cents). amount × weight may pass 2^53: the product is then taken in BigInt.
 */
export function splitProportionally(amount: Cents, weights: readonly Cents[], caps?: readonly Cents[]): Split {
  const shares = new Array<Cents>(weights.length).fill(0);
  let total = 0;
  let last = -1;
  for (let index = 0; index < weights.length; index++) {
    if (weights[index]! > 0) {
      total += weights[index]!;
      last = index;
    }
  }
  if (last < 0 || amount <= 0) return { shares, unplaced: Math.max(amount, 0) };

  let room = Infinity;
  if (caps) {
    room = 0;
    for (let index = 0; index < weights.length; index++) if (weights[index]! > 0) room += caps[index]!;
  }
  const placed = Math.min(amount, room);
  if (placed <= 0) return { shares, unplaced: amount };

  const exact = Number.isSafeInteger(total) && Number.isSafeInteger(placed * total);
  let given = 0;
  for (let index = 0; index < last; index++) {
    const weight = weights[index]!;
    if (weight === 0) continue;
    const share = exact ? roundedQuotient(placed * weight, total) : bigRoundedQuotient(placed, weight, total);
    shares[index] = share;
    given += share;
  }
  shares[last] = placed - given;
  settle(shares, weights, caps);
  return { shares, unplaced: amount - placed };
}

/** round(product / divisor) half-up, for safe non-negative integers. */
function roundedQuotient(product: number, divisor: number): number {
  const remainder = product % divisor;
  const quotient = (product - remainder) / divisor;
  return remainder * 2 >= divisor ? quotient + 1 : quotient;
}

function bigRoundedQuotient(amount: number, weight: number, total: number): number {
  const product = BigInt(amount) * BigInt(weight);
  const divisor = BigInt(total);
  const quotient = product / divisor;
  return Number((product % divisor) * 2n >= divisor ? quotient + 1n : quotient);
}

/**
 * Moves what a share cannot hold (above its cap, or below 0) to the next items in payload order,
 * around to the first. The sum stays the same; the caller made sure the caps can hold it, so the
 * carry is gone before the second pass comes back to where it started.
 */
function settle(shares: Cents[], weights: readonly Cents[], caps: readonly Cents[] | undefined): void {
  const count = shares.length;
  let carry = 0;
  for (let step = 0; step < 2 * count; step++) {
    if (step >= count && carry === 0) return;
    const index = step % count;
    if (weights[index] === 0) continue;
    const cap = caps ? caps[index]! : Infinity;
    let share = shares[index]! + carry;
    carry = 0;
    if (share > cap) {
      carry = share - cap;
      share = cap;
    } else if (share < 0) {
      carry = share;
      share = 0;
    }
    shares[index] = share;
  }
}

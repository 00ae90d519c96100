import type { Cents } from '../../tax-engine/money.js';

/**
 * `amount` split in proportion to `weights` (cents, not negative): each share but the last is
 * round(amount × weight / Σ weights) half-up (away from zero for a negative amount), and the
 * last takes the remainder, so the shares add up to `amount` exactly. Without any weight (all
 * zero) the last takes the whole amount. BigInt: amount × weight can pass 2^53.
 */
export function splitProportionally(amount: Cents, weights: readonly Cents[]): Cents[] {
  if (weights.length === 0) return [];
  const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  const magnitude = BigInt(Math.abs(amount));
  const shares: Cents[] = [];
  let given = 0;
  for (let index = 0; index < weights.length - 1; index++) {
    let share = 0;
    if (total > 0n) {
      const product = magnitude * BigInt(weights[index]);
      const quotient = product / total;
      const rounded = Number((product % total) * 2n >= total ? quotient + 1n : quotient);
      share = amount < 0 ? 0 - rounded : rounded;
    }
    shares.push(share);
    given += share;
  }
  shares.push(amount - given);
  return shares;
}

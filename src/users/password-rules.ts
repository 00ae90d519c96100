import { dictionary } from '@zxcvbn-ts/language-common';

/** Why a password is refused, as `details[].reason` of PASSWORD_REJECTED. */
export type PasswordProblem = 'TOO_SHORT' | 'COMMON';

export const MIN_PASSWORD_LENGTH = 12;

/**
 * The common-password list of zxcvbn-ts (about 49,000 passwords most found in breaches, all lower
 * case), loaded once. See "Password rules" in docs/api-decisions.md.
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary as Record<string, string[]>)['passwords-common']);
  return common;
}

/** The rule a password breaks, or undefined: at least 12 characters (code points), not in the common list (any case). */
export function passwordProblem(password: string): PasswordProblem | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'TOO_SHORT';
  if (commonPasswords().has(password.toLowerCase())) return 'COMMON';
  return undefined;
}

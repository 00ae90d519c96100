import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** Why a password is refused, as `details[].reason` of PASSWORD_REJECTED. */
export type PasswordProblem = 'TOO_SHORT' | 'COMMON' | 'PERSONAL' | 'GUESSABLE';

export const MIN_PASSWORD_LENGTH = 12;

/**
 * The least zxcvbn score accepted: 3 is "safely unguessable" against an online attack (about 10^8
 * guesses or more), which the sign-in limits turn into years. See "Password rules" in docs/api-decisions.md.
 */
export const MIN_PASSWORD_SCORE = 3;

/** Whose password it is: what zxcvbn looks for in it beside its dictionaries. */
export interface PasswordOwner {
  email: string;
  name: string;
}

/** Built once: the common dictionaries (breached passwords, names, frequent words) and keyboard layouts. */
let estimator: ZxcvbnFactory | undefined;
function strength(password: string, userInputs: string[]): ZxcvbnResult {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return estimator.check(password, userInputs);
}

/** The common-password list of zxcvbn-ts (about 49,000 passwords most found in breaches, all lower case), loaded once. */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary as Record<string, string[]>)['passwords-common']);
  return common;
}

/**
 * What of the person a password must not be made of: the email, its local part and the pieces of
 * both, the name, its words, and the name without spaces (`mariasilva`). Lower case, 3 characters or more.
 */
export function personalWords(owner: PasswordOwner): string[] {
  const email = owner.email.trim().toLowerCase();
  const local = email.split('@')[0] ?? '';
  const name = owner.name.trim().toLowerCase();
  const words = [email, local, ...email.split(/[@._+-]+/), name, ...name.split(/[\s.'-]+/), name.replace(/[\s.'-]+/g, '')];
  return [...new Set(words.filter((word) => [...word].length >= 3))];
}

/**
 * The rule a password breaks, or undefined: at least 12 characters (code points), not in the common
 * list (any case), and a zxcvbn score of at least 3 with the person's email and name as its own
 * words (`PERSONAL` when those words are what makes it guessable, `GUESSABLE` otherwise: repeats,
 * sequences, keyboard walks, common words and phrases).
 */
export function passwordProblem(password: string, owner: PasswordOwner): PasswordProblem | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'TOO_SHORT';
  if (commonPasswords().has(password.toLowerCase())) return 'COMMON';
  const result = strength(password, personalWords(owner));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const personal = result.sequence.some((match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs');
  return personal ? 'PERSONAL' : 'GUESSABLE';
}

import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { ApiProblem } from '../api/client';

/** The service's least length; whether a password is too easy to guess is the service's to say (PASSWORD_REJECTED). */
export const PASSWORD_MIN_LENGTH = 12;

const REASONS = ['TOO_SHORT', 'COMMON', 'PERSONAL', 'GUESSABLE'] as const;
type Reason = (typeof REASONS)[number];
const isReason = (value: unknown): value is Reason => typeof value === 'string' && (REASONS as readonly string[]).includes(value);

/** A new password typed twice: at least 12 characters, both the same. */
export function newPasswordSchema(t: TFunction<'common'>) {
  return z
    .object({
      password: z.string().min(PASSWORD_MIN_LENGTH, { message: t('password.tooShort') }),
      confirm: z.string(),
    })
    .refine((values) => values.password === values.confirm, { message: t('password.mismatch'), path: ['confirm'] });
}

/**
 * The reasons of a 400 PASSWORD_REJECTED, in the reader's language (a reason this console does not
 * know yet shows the service's own sentence); null for any other failure.
 */
export function passwordRejections(problem: ApiProblem, t: TFunction<'common'>): string[] | null {
  if (problem.status !== 400 || problem.code !== 'PASSWORD_REJECTED') return null;
  const reasons = (problem.details ?? []).map((detail) =>
    isReason(detail.reason) ? t(`password.rejected.${detail.reason}`) : (detail.problem ?? problem.message),
  );
  return reasons.length > 0 ? reasons : [problem.message];
}

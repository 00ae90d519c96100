import { Inject, Injectable } from '@nestjs/common';
import nodemailer from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';

/** Why an e-mail was not sent; answered to the admin and logged, never with the message itself. */
export const EMAIL_PROBLEMS = ['SMTP_NOT_CONFIGURED', 'SMTP_TIMEOUT', 'SMTP_UNREACHABLE', 'SMTP_AUTH_FAILED', 'SMTP_REJECTED'] as const;
export type EmailProblem = (typeof EMAIL_PROBLEMS)[number];

export type MailOutcome = { sent: true } | { sent: false; problem: EmailProblem };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends e-mails through SMTP_URL, each within SMTP_TIMEOUT_MS from connecting to the server's
 * acceptance. A send never throws: a failure is an outcome the caller answers, so nothing that
 * depends on the e-mail is lost because the mail server is down or slow.
 */
@Injectable()
export class Mailer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  get configured(): boolean {
    return this.config.smtpUrl !== undefined;
  }

  async send(message: MailMessage): Promise<MailOutcome> {
    const { smtpUrl, smtpFrom, smtpTimeoutMs } = this.config;
    if (smtpUrl === undefined || smtpFrom === undefined) return { sent: false, problem: 'SMTP_NOT_CONFIGURED' };
    // One connection per e-mail (they are rare): closing it is how a send past its deadline stops.
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: smtpTimeoutMs,
      greetingTimeout: smtpTimeoutMs,
      socketTimeout: smtpTimeoutMs,
      logger: false,
      debug: false,
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), smtpTimeoutMs);
    });
    try {
      const result = await Promise.race([transport.sendMail({ from: smtpFrom, ...message }), deadline]);
      if (result === 'timeout') return this.failed('SMTP_TIMEOUT');
      return { sent: true };
    } catch (error) {
      return this.failed(problemOf(error), error);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  }

  private failed(problem: EmailProblem, error?: unknown): MailOutcome {
    // The code and SMTP status only: nodemailer's message may quote the server, the URL or the e-mail.
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    this.logger.warn({ context: 'Mail', problem, code, responseCode }, 'an e-mail was not sent');
    return { sent: false, problem };
  }
}

function problemOf(error: unknown): EmailProblem {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ETIMEDOUT') return 'SMTP_TIMEOUT';
  if (code === 'EAUTH' || code === 'ENOAUTH') return 'SMTP_AUTH_FAILED';
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS' || code === 'ETLS' || code === 'ECONNREFUSED') {
    return 'SMTP_UNREACHABLE';
  }
  return 'SMTP_REJECTED';
}

import { Module } from '@nestjs/common';
import { Mailer } from './mailer.js';

/** Outgoing e-mail (SMTP_URL); without it nothing is sent and callers answer so. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}

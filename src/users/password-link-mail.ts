import type { MailMessage } from '../mail/mailer.js';
import type { PasswordLinkPurpose } from './password-link.entity.js';

/**
 * The e-mail carrying a person's one-time link. The service does not know a person's language, so the
 * message says everything in Portuguese (Brazil) first and in English after it.
 */
export function passwordLinkMail(
  person: { email: string; name: string },
  purpose: PasswordLinkPurpose,
  link: string,
  expiresAt: Date,
): MailMessage {
  const expiresPt = expiresAt.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' });
  const expiresEn = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const invitation = purpose === 'invitation';
  const portuguese = [
    `Olá, ${person.name}.`,
    '',
    invitation
      ? 'Você foi convidado(a) para o console do Order Tax. Abra o link abaixo para definir a sua senha:'
      : 'Foi pedida uma nova senha para a sua conta no console do Order Tax. Abra o link abaixo para defini-la:',
    '',
    link,
    '',
    `O link funciona uma única vez, até ${expiresPt} (horário de Brasília). Se você não esperava este e-mail, ignore-o.`,
  ];
  const english = [
    `Hello, ${person.name}.`,
    '',
    invitation
      ? 'You have been invited to the Order Tax console. Open the link below to set your password:'
      : 'A new password was requested for your Order Tax console account. Open the link below to set it:',
    '',
    link,
    '',
    `The link works once, until ${expiresEn}. If you did not expect this e-mail, ignore it.`,
  ];
  return {
    to: person.email,
    subject: invitation
      ? 'Convite para o console Order Tax / Invitation to the Order Tax console'
      : 'Nova senha no console Order Tax / New password for the Order Tax console',
    text: [...portuguese, '', '---', '', ...english, ''].join('\n'),
  };
}

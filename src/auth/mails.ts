/** The words of the mails accounts get; platform/mail lays them out, escapes and sends them. */
import { composeMail, type MailMessage } from '../platform/mail/index.js';

const IGNORE_IF_NOT_YOU = 'If you did not ask for this, you can ignore this message.';

const RESET_SUBJECT = 'Reset your password';

export function confirmationMail(to: string, link: string): MailMessage {
  const subject = 'Confirm your e-mail address';
  return composeMail({
    purpose: 'email-confirmation',
    to,
    subject,
    blocks: [
      'Welcome to Research Workspace. Confirm your address:',
      [{ text: subject, href: link }],
      IGNORE_IF_NOT_YOU,
    ],
  });
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return composeMail({
    purpose: 'password-reset',
    to,
    subject: RESET_SUBJECT,
    blocks: [
      'Someone asked to reset your Research Workspace password. The link works once, for one hour:',
      [{ text: RESET_SUBJECT, href: link }],
      IGNORE_IF_NOT_YOU,
    ],
  });
}

export function passwordChangedMail(to: string, resetLink: string): MailMessage {
  return composeMail({
    purpose: 'password-changed',
    to,
    subject: 'Your password was changed',
    blocks: [
      'The password of your Research Workspace account was changed, and every other device was signed out.',
      ['If you did not do this, ', { text: 'reset your password now', href: resetLink }, '.'],
    ],
  });
}

export function pausedLinksMail(
  appOrigin: string,
  to: string,
  workspaces: Array<{ id: string; name: string }>,
): MailMessage {
  return composeMail({
    purpose: 'share-links-paused',
    to,
    subject: 'Your share links are paused',
    blocks: [
      'You proved that this e-mail address is yours, so your Research Workspace account is now yours alone. ' +
        'Its address had never been confirmed, so the share links made before could have been made by someone else who signed up with your address. ' +
        'They are paused, not deleted: open each workspace and resume the links you made yourself; they keep their addresses.',
      {
        list: workspaces.map((workspace) => [
          [{ text: workspace.name, href: `${appOrigin}/workspaces/${workspace.id}` }],
        ]),
      },
    ],
  });
}

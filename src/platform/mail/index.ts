/**
 * Mail, the one way: a capability composes a message from its own words (`composeMail`: blocks of
 * text and links, laid out and escaped by ./layout.ts) and sends it through a `Mailer`, which every
 * capability gets from `mailerFor(transport, log)`. The mailer logs every message the same way: what
 * kind of mail it was, its Message-ID and, for the outbox, the file written. Never the recipient's
 * words nor the links (they hold tokens): a developer without SMTP opens the file named in the log.
 */
import { renderMailBody, type MailBlock } from './layout.js';
import type { MailTransport, OutgoingMessage, SendProgress } from './transport.js';

export type { MailBlock, MailLine } from './layout.js';
export { createMailTransport, type MailTransport, type SendProgress } from './transport.js';

declare const composed: unique symbol;

/** A message made by `composeMail`: the only kind a `Mailer` sends. */
export type MailMessage = OutgoingMessage & {
  /** What kind of mail it is (`password-reset`, `invitation`…): the log's name for it. */
  purpose: string;
  readonly [composed]: true;
};

export interface MailContent {
  purpose: string;
  to: string;
  subject: string;
  blocks: MailBlock[];
  /** Extra header fields (e.g. List-Unsubscribe); values are encoded by the transport. */
  headers?: Record<string, string>;
  /** A Message-ID of the sender's choosing (`<id@host>`), e.g. derived from what the mail is about. */
  messageId?: string;
}

/** A message's text and HTML parts, both from `blocks`, in the one layout. */
export function composeMail(content: MailContent): MailMessage {
  const { blocks, ...rest } = content;
  return { ...rest, ...renderMailBody(blocks) } as MailMessage;
}

/** What the mailer logs with: a pino-style logger (Fastify's, a request's). */
export interface MailLog {
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface Mailer {
  readonly kind: MailTransport['kind'];
  /** Sends the message and logs it; `progress` as MailTransport.send takes it. */
  send(message: MailMessage, progress?: SendProgress): Promise<{ id: string; file?: string }>;
  /**
   * Does the work of `send` and delivers nothing (MailTransport.compose): for a request that must
   * cost the same whether or not it mails anything.
   */
  compose(message: MailMessage): Promise<void>;
}

/** The transport without the message's own `purpose` (nodemailer would take it for an option). */
const outgoing = ({ purpose: _purpose, ...message }: MailMessage): OutgoingMessage => message;

export function mailerFor(transport: MailTransport, log: MailLog): Mailer {
  return {
    kind: transport.kind,
    async send(message, progress) {
      const sent = await transport.send(outgoing(message), progress);
      if (sent.file)
        log.info(
          { mail: message.purpose, messageId: sent.id, file: sent.file },
          'mail written to the outbox',
        );
      else log.info({ mail: message.purpose, messageId: sent.id }, 'mail sent over SMTP');
      return sent;
    },
    async compose(message) {
      await transport.compose(outgoing(message));
      log.debug({ mail: message.purpose }, 'mail composed and not sent');
    },
  };
}

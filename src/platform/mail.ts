/**
 * Outgoing mail through nodemailer: SMTP when SMTP_URL is set, otherwise each message is written as
 * an `.eml` file to DATA_DIR/outbox (the zero-set-up default for one machine).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';

type Nodemailer = (typeof import('nodemailer'))['default'];

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ id: string; file?: string }>;
  /** For health: whether the transport answers. */
  verify(): Promise<boolean>;
  close(): void;
}

/** A transport made on first use: nodemailer is loaded only by a process that sends or checks mail. */
function lazyTransport(make: (mailer: Nodemailer) => Transporter): { get(): Promise<Transporter>; close(): void } {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((module) => make(module.default))),
    close: () => void transport?.then((made) => made.close()),
  };
}

export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((mailer) => mailer.createTransport(smtpUrl));
    return {
      kind: 'smtp',
      async send(message) {
        const info = await (await transport.get()).sendMail({ from: options.from, ...message });
        return { id: info.messageId };
      },
      verify: () => transport.get().then((made) => made.verify()).then(
        () => true,
        () => false,
      ),
      close: () => transport.close(),
    };
  }
  const transport = lazyTransport((mailer) => mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    kind: 'outbox',
    async send(message) {
      const info = await (await transport.get()).sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      // Written whole under another name, then renamed: whoever watches the outbox never reads half a mail.
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      return { id: info.messageId, file };
    },
    verify: async () => true,
    close: () => transport.close(),
  };
}

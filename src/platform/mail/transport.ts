/**
 * How mail leaves: through nodemailer, over SMTP when SMTP_URL is set, otherwise each message is
 * written as an `.eml` file to DATA_DIR/outbox (the zero-set-up default for one machine). Capabilities
 * never hold this: they get a `Mailer` (./index.ts), which composes and logs every message the same way.
 */
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';

type Nodemailer = (typeof import('nodemailer'))['default'];

/** A message as the transport takes it: its parts already rendered. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header fields (e.g. List-Unsubscribe); values are encoded by the transport. */
  headers?: Record<string, string>;
  /** A Message-ID of the sender's choosing (`<id@host>`), e.g. derived from what the mail is about. */
  messageId?: string;
}

/** Said by `send` before the step after which the message may have been taken (see `send`). */
export interface SendProgress {
  /** Awaited, and a throw stops the send: SMTP, before the final dot (smtp-send.ts); the outbox, before the rename. */
  beforeFinalDot(): Promise<void>;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  /**
   * Delivers a message. With `progress`, the step that hands it over for good waits for
   * `progress.beforeFinalDot()`: a sender that dies before that has resolved knows the message was
   * not taken (the alert digests record it, alerts/jobs.ts).
   */
  send(message: OutgoingMessage, progress?: SendProgress): Promise<{ id: string; file?: string }>;
  /**
   * Does the work of `send` in this process and delivers nothing: a request that must cost the same
   * whether or not it mails anything (a password reset for an address without an account) does this
   * in place of sending. The message is rendered; for the outbox it is also written as `send` writes
   * it, then removed instead of put in place (writing the file measurably delayed the next requests).
   * Over SMTP the difference left is the exchange with the mail server, which waits on the network.
   */
  compose(message: OutgoingMessage): Promise<void>;
  /** For health: whether the transport answers. */
  verify(): Promise<boolean>;
  close(): void;
}

/** nodemailer's envelope of a rendered message, as an SMTP exchange needs it (one sender, a list of recipients). */
function smtpEnvelope(envelope: { from?: string | false; to?: string[] }): {
  from: string;
  to: string[];
} {
  return { from: envelope.from || '', to: envelope.to ?? [] };
}

/** A transport made on first use: nodemailer is loaded only by a process that sends or checks mail. */
function lazyTransport(make: (mailer: Nodemailer) => Transporter): {
  get(): Promise<Transporter>;
  close(): void;
} {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((module) => make(module.default))),
    close: () => void transport?.then((made) => made.close()),
  };
}

export function createMailTransport(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
}): MailTransport {
  // Renders a message into a buffer: the outbox's transport, and what `compose` renders with.
  const rendering = lazyTransport((mailer) =>
    mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  const render = async (message: OutgoingMessage) =>
    (await rendering.get()).sendMail({ from: options.from, ...message });
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((mailer) => mailer.createTransport(smtpUrl));
    return {
      kind: 'smtp',
      async send(message, progress) {
        if (progress) {
          // Rendered here, then sent step by step, to know where the exchange is (smtp-send.ts).
          const info = await render(message);
          const { sendOverSmtp } = await import('./smtp-send.js');
          await sendOverSmtp(
            smtpUrl,
            { envelope: smtpEnvelope(info.envelope), raw: info.message as Buffer },
            () => progress.beforeFinalDot(),
          );
          return { id: info.messageId };
        }
        const info = await (await transport.get()).sendMail({ from: options.from, ...message });
        return { id: info.messageId };
      },
      compose: async (message) => void (await render(message)),
      verify: () =>
        transport
          .get()
          .then((made) => made.verify())
          .then(
            () => true,
            () => false,
          ),
      close: () => {
        transport.close();
        rendering.close();
      },
    };
  }
  /** The message written under a name that no reader of the outbox takes, beside the name it will have. */
  const writeAside = async (message: Buffer) => {
    await mkdir(options.outboxDir, { recursive: true });
    const file = join(
      options.outboxDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
    );
    await writeFile(`${file}.tmp`, message, { mode: 0o600 });
    return { written: `${file}.tmp`, file };
  };
  return {
    kind: 'outbox',
    async send(message, progress) {
      const info = await render(message);
      const { written, file } = await writeAside(info.message as Buffer);
      await progress?.beforeFinalDot();
      // Written whole under another name, then renamed: whoever watches the outbox never reads half a mail.
      await rename(written, file);
      return { id: info.messageId, file };
    },
    async compose(message) {
      const { written } = await writeAside((await render(message)).message as Buffer);
      await unlink(written);
    },
    verify: async () => true,
    close: () => rendering.close(),
  };
}

/**
 * Sends one rendered message over SMTP and says, before the end of its data goes out, that it is
 * about to: `beforeFinalDot` is awaited after the server has said "354, go ahead" and every byte of the
 * message is written but the final `<CRLF>.<CRLF>`. A server accepts a message only on that dot, so a
 * sender that dies before `beforeFinalDot` has resolved left a message that was certainly not
 * accepted (the connection dropping mid-data aborts it); only from the dot to the server's reply is
 * the outcome unknown. nodemailer's own SMTP connection class does the exchange (the same one its
 * transport uses, with the same SMTP_URL parsing); this only drives it step by step.
 */
import { Readable } from 'node:stream';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

export interface RenderedMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

export async function sendOverSmtp(
  smtpUrl: string,
  message: RenderedMessage,
  beforeFinalDot: () => Promise<void>,
): Promise<void> {
  const { auth, ...options } = parseConnectionUrl(smtpUrl);
  const connection = new SMTPConnection(options);
  // An error is also handed to the step waiting on it; this keeps an unheard one from crashing.
  connection.on('error', () => {});
  const step = <T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void) =>
    new Promise<T | undefined>((resolve, reject) =>
      run((error, value) => (error ? reject(error) : resolve(value))),
    );
  try {
    await step((done) => connection.connect((error) => done(error)));
    if (auth?.user) await step((done) => connection.login(auth, (error) => done(error)));
    // Read only once the server said 354 (the connection pipes it then): the whole message, then,
    // after beforeFinalDot, its end, which makes the connection write the final dot.
    let started = false;
    const body = new Readable({
      read() {
        if (started) return;
        started = true;
        this.push(message.raw);
        beforeFinalDot().then(
          () => this.push(null),
          (error: unknown) =>
            this.destroy(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
    await step((done) => connection.send(message.envelope, body, (error) => done(error)));
    connection.quit();
  } catch (error) {
    connection.close();
    throw error;
  }
}

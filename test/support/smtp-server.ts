/**
 * A real SMTP server (smtp-server) on a free local port for tests that send mail over SMTP: it keeps
 * each message it accepts, and refuses the next `refuse(n)` messages with 451 ("try later"), as a
 * busy mail server does, so that a test can watch the sender retry.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** The raw messages accepted, in order. */
  received: string[];
  /** How many messages were refused so far. */
  refused(): number;
  /** Refuses the next `count` messages. */
  refuse(count: number): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: string[] = [];
  let toRefuse = 0;
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse--;
          refused++;
          return callback(
            Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }),
          );
        }
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    refused: () => refused,
    refuse: (count) => void (toRefuse = count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

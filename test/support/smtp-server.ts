/**
 * A real SMTP server (smtp-server) on a free local port for tests that send mail over SMTP: it keeps
 * each message it accepts, and refuses the next `refuse(n)` messages with 451 ("try later"), as a
 * busy mail server does, so that a test can watch the sender retry. `hold(point)` makes it stop
 * answering the next exchange at that point, as a slow server does, so that a test can kill the
 * sender there: `envelope`, before its answer to RCPT TO (the message's data not sent yet);
 * `reply`, after the final dot, before its answer to it (the message received and kept).
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
  /** Holds the next exchange at `point`; resolves once an exchange is held there (never answered). */
  hold(point: 'envelope' | 'reply'): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: string[] = [];
  let toRefuse = 0;
  let refused = 0;
  let holding: { point: 'envelope' | 'reply'; held(): void } | undefined;
  /** Whether to hold here; the held exchange's callback is then never called. */
  const holdsAt = (point: 'envelope' | 'reply') => {
    if (holding?.point !== point) return false;
    holding.held();
    holding = undefined;
    return true;
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      if (!holdsAt('envelope')) callback();
    },
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
        if (!holdsAt('reply')) callback();
      });
    },
  });
  // A sender the tests kill mid-exchange resets its connection: the server says so as an 'error'
  // event, which with no listener would be an uncaught exception of the test process.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') console.error('test SMTP server:', error);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    refused: () => refused,
    refuse: (count) => void (toRefuse = count),
    hold: (point) => new Promise<void>((held) => void (holding = { point, held })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

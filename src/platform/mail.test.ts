/** Mail through real SMTP (a local smtp-server process) and to the outbox folder. */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser } from '../../test/support/factories.js';
import { createMailer } from './mail.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('mail over SMTP', () => {
  const received: Received[] = [];
  const arrivals = new EventEmitter();
  let smtp: SMTPServer;
  let port: number;
  let t: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          arrivals.emit('mail');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
    t = await buildTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Research Workspace <noreply@rw.test>',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the password reset mail through SMTP with a working link', async () => {
    const user = await buildUser(t.app);
    const arrived = once(arrivals, 'mail', { signal: AbortSignal.timeout(10_000) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(200);
    // The reset mail is sent after the reply (so that its time does not tell which addresses have accounts).
    await arrived;
    const mail = received.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.from).toBe('noreply@rw.test');
    expect(mail.raw).toMatch(/Subject: Reset your password/);
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = body.match(/update-password\?token=([A-Za-z0-9_-]+)/)![1]!;
    const update = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-password',
      payload: { token, password: 'smtp-delivered-7' },
    });
    expect(update.statusCode).toBe(200);
  });

  it('reports the SMTP transport in health', async () => {
    await t.app.ctx.platform.health.refresh();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json().services.mail).toBe('connected');
  });
});

describe('mail to the outbox', () => {
  it('writes an .eml file per message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-outbox-'));
    const mailer = createMailer({ from: 'rw <a@rw.test>', outboxDir: dir });
    const sent = await mailer.send({ to: 'b@rw.test', subject: 'Hello outbox', text: 'Line one' });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(sent.file).toBe(join(dir, files[0]!));
    const eml = readFileSync(sent.file!, 'utf8');
    expect(eml).toMatch(/Subject: Hello outbox/);
    expect(eml).toMatch(/To: b@rw\.test/);
    expect(eml).toContain('Line one');
  });

  it('composes a message without leaving it in the outbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-outbox-'));
    const mailer = createMailer({ from: 'rw <a@rw.test>', outboxDir: dir });
    await mailer.compose({ to: 'nobody@rw.test', subject: 'Not sent', text: 'Line one' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** Mail through real SMTP (a local smtp-server process) and to the outbox folder. */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BearerReply } from '../../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../../test/support/app.js';
import { buildUser } from '../../../test/support/factories.js';
import { createMailTransport, composeMail } from './index.js';
import { linkIn, mailWrittenBy } from '../../../test/support/outbox.js';

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
    const transport = createMailTransport({ from: 'rw <a@rw.test>', outboxDir: dir });
    const sent = await transport.send({
      to: 'b@rw.test',
      subject: 'Hello outbox',
      text: 'Line one',
    });
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
    const transport = createMailTransport({ from: 'rw <a@rw.test>', outboxDir: dir });
    await transport.compose({ to: 'nobody@rw.test', subject: 'Not sent', text: 'Line one' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('composeMail', () => {
  const hostile = '<script>alert(1)</script> & "quotes" \'too\'';

  it('renders the text and HTML parts from the same words, every value escaped', () => {
    const mail = composeMail({
      purpose: 'test',
      to: 'b@rw.test',
      subject: 'Hello',
      blocks: [
        hostile,
        ['Open ', { text: hostile, href: 'https://rw.test/a?b=1&c="2"' }, '.'],
        { list: [['one', [{ strong: 'two' }]], ['three']], ordered: true },
      ],
    });
    expect(mail.text).toBe(
      `${hostile}\n\nOpen ${hostile}: https://rw.test/a?b=1&c="2".\n\n1. one\n   two\n\n2. three\n`,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;</p>',
    );
    expect(mail.html).toContain(
      '<a href="https://rw.test/a?b=1&amp;c=&quot;2&quot;">&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(mail.html).toContain('<ol><li>one<br><strong>two</strong></li><li>three</li></ol>');
  });

  it('makes only http(s) addresses links in the HTML part', () => {
    const mail = composeMail({
      purpose: 'test',
      to: 'b@rw.test',
      subject: 'Hello',
      blocks: [[{ text: 'Click', href: 'javascript:alert(1)' }]],
    });
    expect(mail.html).toContain('<p>Click</p>');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).toBe('Click: javascript:alert(1)\n');
  });
});

/** The app's log lines while it runs, in outbox mode. */
async function appLogging(): Promise<{
  app: FastifyInstance;
  dataDir: string;
  lines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}> {
  const lines: Array<Record<string, unknown>> = [];
  const built = await buildTestApp({
    env: { LOG_LEVEL: 'info', RATE_LIMIT_INVITATIONS_PER_HOUR: '1000' },
    build: { logStream: { write: (line) => void lines.push(JSON.parse(line)) } },
  });
  return { app: built.app, dataDir: built.dataDir, lines, close: () => built.close() };
}

describe('every mail logged the same way', () => {
  let logged: Awaited<ReturnType<typeof appLogging>>;
  beforeAll(async () => {
    logged = await appLogging();
  });
  afterAll(async () => logged?.close());

  const mailLines = () => logged.lines.filter((line) => typeof line.mail === 'string');

  it('logs the reset mail, the invitation and the password change with their outbox files, never their links', async () => {
    const { app, dataDir } = logged;
    const [owner, ada] = await Promise.all([buildUser(app), buildUser(app)]);
    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: owner.bearer,
      payload: { name: 'Logged mail' },
    });
    const workspaceId = workspace.json<BearerReply<'WorkspaceEnvelope'>>().workspace.id;
    const before = mailLines().length;

    const reset = await mailWrittenBy(dataDir, () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: ada.email },
      }),
    );
    const invitation = await mailWrittenBy(dataDir, () =>
      app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/invitations`,
        headers: owner.bearer,
        payload: { email: 'someone@rw.test', role: 'viewer' },
      }),
    );
    const changed = await mailWrittenBy(dataDir, () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: ada.bearer,
        payload: { currentPassword: ada.password, newPassword: 'a-fresh-harbour-19' },
      }),
    );

    const lines = mailLines().slice(before);
    expect(lines.map((line) => line.mail)).toEqual([
      'password-reset',
      'invitation',
      'password-changed',
    ]);
    const outbox = readdirSync(join(dataDir, 'outbox'));
    for (const line of lines) {
      expect(line.msg).toBe('mail written to the outbox');
      expect(outbox).toContain(basename(String(line.file)));
      expect(line.messageId).toMatch(/^<.+@.+>$/);
    }
    // The links' tokens are in the mails and nowhere in the log.
    const tokens = [
      linkIn(reset, /token=([A-Za-z0-9_-]{20,})/).split('=')[1]!,
      linkIn(invitation, /\/invitations\/([A-Za-z0-9_-]{20,})/).split('/')[2]!,
    ];
    const log = JSON.stringify(logged.lines);
    for (const token of tokens) expect(log).not.toContain(token);
    expect(log).not.toContain('update-password?token');
    expect(changed).toContain('reset your password now');
  });
});

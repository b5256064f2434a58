/** Mail written to DATA_DIR/outbox (no SMTP): waiting for it, since some mail is sent after the reply. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function outboxFiles(dataDir: string): string[] {
  const outbox = join(dataDir, 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')) : [];
}

/** Quoted-printable soft breaks and `=3D` undone, so that links read whole. */
function readMail(dataDir: string, name: string): string {
  return readFileSync(join(dataDir, 'outbox', name), 'utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
}

/**
 * Runs `action` and returns the text of the one mail it wrote to the outbox, waiting for it up to
 * `timeoutMs` (the file is written when the mail is sent, which may be after the reply). A bound on
 * waiting, not a timing check: the mail is there as soon as it is written; 15 s because a goodbye
 * mail on the PostgreSQL leg once took over 5 s with the whole suite beside it (CI, 2 cores).
 */
export async function mailWrittenBy(
  dataDir: string,
  action: () => Promise<unknown>,
  timeoutMs = 15_000,
): Promise<string> {
  const before = new Set(outboxFiles(dataDir));
  await action();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const fresh = outboxFiles(dataDir).filter((name) => !before.has(name));
    if (fresh.length > 1) throw new Error(`expected one new mail, found ${fresh.length}`);
    if (fresh.length === 1) return readMail(dataDir, fresh[0]!);
    if (Date.now() > deadline) throw new Error(`no mail in the outbox within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** The first match of `pattern` in `mail`, or an error that shows the mail. */
export function linkIn(mail: string, pattern: RegExp): string {
  const match = mail.match(pattern);
  if (!match) throw new Error(`no link in mail:\n${mail}`);
  return match[0];
}

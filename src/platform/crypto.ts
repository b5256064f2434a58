/** Random tokens, their hashes (what we store), and sealing a value so only this service can read it back. */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A URL-safe random token with `bytes` bytes (default 32 = 256 bits) of randomness. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 of a token, hex: what the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function keyFrom(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\0${secret}`).digest();
}

/** AES-256-GCM with a key derived from the service secret and a purpose label. */
export function seal(plain: string, secret: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function unseal(sealed: string, secret: string, purpose: string): string | null {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(secret, purpose), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

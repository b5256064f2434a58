/** Password hashing (argon2id) and the password policy: at least 8 characters (NIST SP 800-63B), not a common
 * password. It applies to new passwords only: one set under the old 6-character rule still signs in.
 */
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * zxcvbn's list of ~49,000 most common passwords, lower-cased. Loaded on the first password check:
 * its module carries all of zxcvbn's word lists, memory a server that only reads never needs.
 */
function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(dictionary['passwords-common'].map((word: string) => word.toLowerCase())),
  );
  return commonPasswords;
}

/** True for passwords in that list (case-insensitive). */
async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswords()).has(password.toLowerCase());
}

/** Why a password is refused, or null when it is acceptable. */
export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (await isCommonPassword(password)) return 'is too common; choose a less guessable password';
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

/** Password hashing (argon2id) and the password policy: at least 8 characters (NIST SP 800-63B), not a common
 * password. It applies to new passwords only: one set under the old 6-character rule still signs in.
 */
import { hash, verify } from '@node-rs/argon2';

/** What one argon2id hash costs: memory in KiB, iterations, lanes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id baseline (19 MiB, 2 iterations, 1 lane): every new hash the service makes. */
export const OWASP_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

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

/**
 * An argon2id hash of `password` at `cost`; a verification reads the cost back from the hash. The
 * cost is OWASP's except in tests, which make the hashes of their many sign-ups cheap (BuildOptions).
 */
export function hashPassword(
  password: string,
  cost: PasswordHashCost = OWASP_HASH_COST,
): Promise<string> {
  // `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
  return hash(password, { algorithm: 2, ...cost });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const dummyHashes = new Map<PasswordHashCost, Promise<string>>();

/**
 * Spends the time of one verification at `cost` (the one the service hashes at), so an unknown e-mail
 * answers as slowly as a wrong password.
 */
export async function verifyAgainstDummy(
  password: string,
  cost: PasswordHashCost = OWASP_HASH_COST,
): Promise<false> {
  let dummyHash = dummyHashes.get(cost);
  if (!dummyHash) {
    dummyHash = hashPassword('dummy-password-for-timing', cost);
    dummyHashes.set(cost, dummyHash);
  }
  await verifyPassword(await dummyHash, password);
  return false;
}

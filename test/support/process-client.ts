/** Talking to a real server process (test/support/server-process.ts) over HTTP: accounts and bounded waits. */
import type { ApiSchema } from './api-types.js';
import { randomUUID } from 'node:crypto';

export interface ProcessUser {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  bearer: { authorization: string };
}

/** Signs a new user up and in through the process at `url` (bearer session). */
export async function signUpAndIn(url: string): Promise<ProcessUser> {
  const email = `fault-${randomUUID().slice(0, 8)}@example.org`;
  const password = 'tidal-quasar-42';
  const json = { 'content-type': 'application/json' };
  const signup = await fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, name: 'Fault Tester' }),
  });
  if (signup.status !== 201)
    throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const signin = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (signin.status !== 200)
    throw new Error(`signin failed: ${signin.status} ${await signin.text()}`);
  const { session } = (await signin.json()) as ApiSchema<'SignInResult'>;
  return {
    email,
    password,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    bearer: { authorization: `Bearer ${session.access_token}` },
  };
}

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One request with a deadline; a refused connection or the deadline is status 0 with the reason as body. */
export async function ask(url: string, init: RequestInit = {}, timeoutMs = 5000): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await res.text(), ms: Date.now() - started };
  } catch (error) {
    return {
      status: 0,
      body: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      ms: Date.now() - started,
    };
  }
}

/** Asks `probe` every `everyMs` until it returns true; false when `withinMs` passes first. */
export async function eventually(
  probe: () => Promise<boolean>,
  withinMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The benchmark's data, made through the service's own API (so it is exactly what the service
 * writes): a reader with 20 workspaces, the first holding 20 resources with two annotations each, and
 * a writer with enough workspaces to take every resource the POST measurement adds (a workspace holds
 * at most 500).
 */
import { randomBytes } from 'node:crypto';
import type { BareUser } from './bare-server.js';

export interface SeededUser extends BareUser {
  token: string;
}

export interface Seed {
  reader: SeededUser;
  writer: SeededUser;
  /** The reader's workspace with 20 resources and 40 annotations. */
  detailWorkspaceId: string;
  /** The writer's workspaces, all empty at first. */
  writeWorkspaceIds: string[];
}

export const READER_WORKSPACES = 20;
export const DETAIL_RESOURCES = 20;
export const ANNOTATIONS_PER_RESOURCE = 2;

async function call<T>(
  origin: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function createUser(origin: string, label: string): Promise<SeededUser> {
  const email = `bench-${label}-${randomBytes(4).toString('hex')}@example.org`;
  const password = `Bench-${randomBytes(12).toString('hex')}`;
  const name = `Bench ${label}`;
  await call(origin, 'POST', '/api/auth/signup', { email, password, name });
  const signedIn = await call<{
    user: { id: string };
    session: { access_token: string; expires_at: number };
  }>(origin, 'POST', '/api/auth/signin', {
    email,
    password,
  });
  return {
    id: signedIn.user.id,
    email,
    name,
    token: signedIn.session.access_token,
    expiresAt: signedIn.session.expires_at,
  };
}

export async function createWorkspace(
  origin: string,
  token: string,
  name: string,
): Promise<string> {
  const reply = await call<{ workspace: { id: string } }>(
    origin,
    'POST',
    '/api/workspaces',
    { name, description: `${name}, made by the benchmark` },
    token,
  );
  return reply.workspace.id;
}

/** Adds `resources` resources to a workspace, each with `annotations` annotations. */
export async function fillDetailWorkspace(
  origin: string,
  token: string,
  workspaceId: string,
  resources: number,
  annotations: number,
): Promise<void> {
  for (let r = 0; r < resources; r++) {
    const { resource } = await call<{ resource: { id: string } }>(
      origin,
      'POST',
      `/api/workspaces/${workspaceId}/resources`,
      {
        title: `Attention patterns in long-document transformers, part ${r + 1}`,
        url: `https://papers.example.org/attention/${r + 1}`,
        notes:
          'Compare with the sparse-attention baseline; the ablation in section 5 is the interesting part.',
        type: 'article',
        tags: ['transformers', 'long documents'],
        authors: ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'],
        data: { doi: `10.5555/bench.${r + 1}`, publishedDate: '2024-05-01' },
      },
      token,
    );
    for (let a = 0; a < annotations; a++) {
      await call(
        origin,
        'POST',
        `/api/resources/${resource.id}/annotations`,
        {
          body: `Note ${a + 1}: the method scales linearly with length.`,
          highlights: { ranges: [{ start: 10 * a, end: 10 * a + 24, color: 'yellow' }] },
        },
        token,
      );
    }
  }
}

export async function seed(origin: string, writeWorkspaces: number): Promise<Seed> {
  const reader = await createUser(origin, 'reader');
  const writer = await createUser(origin, 'writer');

  const readerWorkspaces: string[] = [];
  for (let i = 0; i < READER_WORKSPACES; i++)
    readerWorkspaces.push(await createWorkspace(origin, reader.token, `Reading list ${i + 1}`));
  const detailWorkspaceId = readerWorkspaces[0] as string;
  await fillDetailWorkspace(
    origin,
    reader.token,
    detailWorkspaceId,
    DETAIL_RESOURCES,
    ANNOTATIONS_PER_RESOURCE,
  );

  const writeWorkspaceIds: string[] = [];
  for (let i = 0; i < writeWorkspaces; i++)
    writeWorkspaceIds.push(await createWorkspace(origin, writer.token, `Inbox ${i + 1}`));
  return { reader, writer, detailWorkspaceId, writeWorkspaceIds };
}

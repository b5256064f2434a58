/** Test helpers for the workspace capability: both request dialects, a fake identifier lookup, quick setup calls. */
import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../../platform/dialect.js';
import type { ResolvedResource, ResourceResolver } from '../../context.js';
import type { ApiSchema, BearerReply } from '../../../test/support/api-types.js';
import type { TestUser } from '../../../test/support/factories.js';

export { DIALECTS } from '../../platform/dialect.js';

/** Variant A = session cookies (from the app's origin), Variant B = bearer token. */
export function as(user: TestUser, dialect: Dialect): Record<string, string> {
  return dialect === 'B' ? user.bearer : user.cookieHeaders;
}

export const KNOWN_RECORDS: Record<string, ResolvedResource> = {
  'arxiv:1706.03762v5': {
    id: 'arxiv:1706.03762v5',
    title: 'Attention Is <i>All</i> You Need',
    authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar'],
    abstract:
      'The dominant sequence transduction models are based on complex recurrent or convolutional neural networks.',
    url: 'https://arxiv.org/abs/1706.03762v5',
    provider: 'arxiv',
    publishedDate: '2017-06-12',
    arxivId: '1706.03762',
    pdfUrl: 'https://arxiv.org/pdf/1706.03762v5',
  },
  '10.1038/nature14539': {
    id: 'crossref:10.1038/nature14539',
    title: 'Deep learning',
    authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'],
    abstract:
      'Deep learning allows computational models that are composed of multiple processing layers to learn representations of data.',
    url: 'https://doi.org/10.1038/nature14539',
    provider: 'crossref',
    publishedDate: '2015-05-27',
    doi: '10.1038/nature14539',
  },
  /** A lookup whose addresses are not http(s), as a resolver that let them through would answer. */
  'zenodo:666': {
    id: 'zenodo:666',
    title: 'Hostile addresses',
    authors: ['Mallory'],
    abstract: '',
    url: 'javascript:alert(document.cookie)',
    provider: 'zenodo',
    pdfUrl: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  },
};

/** Knows the records above; `unavailable:*` fails as a provider outage would; anything else is unknown. */
export const fakeResolver: ResourceResolver = async (identifier) => {
  if (identifier.startsWith('unavailable:')) throw new Error('upstream timed out');
  return KNOWN_RECORDS[identifier] ?? null;
};

export async function createWorkspace(
  app: FastifyInstance,
  user: TestUser,
  body: ApiSchema<'WorkspaceCreateInput'> = { name: 'Reading list' },
): Promise<ApiSchema<'Workspace'>> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: user.bearer,
    payload: body,
  });
  if (res.statusCode !== 201)
    throw new Error(`create workspace failed: ${res.statusCode} ${res.body}`);
  return res.json<BearerReply<'WorkspaceEnvelope'>>().workspace;
}

export async function addResource(
  app: FastifyInstance,
  user: TestUser,
  workspaceId: string,
  body: ApiSchema<'ResourceCreateInput'>,
): Promise<ApiSchema<'Resource'>> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/workspaces/${workspaceId}/resources`,
    headers: user.bearer,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`add resource failed: ${res.statusCode} ${res.body}`);
  return res.json<BearerReply<'ResourceEnvelope'>>().resource;
}

export async function annotate(
  app: FastifyInstance,
  user: TestUser,
  resourceId: string,
  body: ApiSchema<'AnnotationCreateInput'>,
): Promise<ApiSchema<'Annotation'>> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/resources/${resourceId}/annotations`,
    headers: user.bearer,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`annotate failed: ${res.statusCode} ${res.body}`);
  return res.json<ApiSchema<'Annotation'>>();
}

export async function shareWorkspace(
  app: FastifyInstance,
  user: TestUser,
  workspaceId: string,
  body: ApiSchema<'ShareLinkCreateInput'> = {},
): Promise<ApiSchema<'ShareLink'> & { token: string; url: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/workspaces/${workspaceId}/share`,
    headers: user.bearer,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`share failed: ${res.statusCode} ${res.body}`);
  const link = res.json<ApiSchema<'ShareLink'>>();
  // The document allows no token only for a link made before the service secret changed.
  if (link.token === null || link.url === null) throw new Error(`share has no token: ${res.body}`);
  return { ...link, token: link.token, url: link.url };
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A PDF upload as a multipart body with one file part (the filename written as a quoted string, `"` and `\` escaped). */
export function pdfMultipart(filename: string, data: Buffer, field = 'file') {
  const boundary = '----rwtest' + Math.random().toString(16).slice(2);
  const quoted = filename.replace(/["\\]/g, (c) => `\\${c}`);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${quoted}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

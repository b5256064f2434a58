/**
 * What a generated client makes of the request bodies: the web app's own types (web/src/api/schema.d.ts,
 * cookie dialect) and the bearer dialect's, generated the same way (`clientTypesOf`), compiled with
 * openapi-fetch. A wrong body (a number, a misspelt or unknown field, no name) must fail to type-check
 * (each is marked `@ts-expect-error`, and an unused one is an error); a right one, and a Blob for the
 * avatar, must type-check without a cast.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILE, clientTypesOf } from '../../scripts/web-api.js';
import { buildTestApp, type TestApp } from '../support/app.js';

/** Inside node_modules, so that the client's `import 'openapi-fetch'` resolves as in the app. */
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

const CALLS = (paths: string) => `
import createClient from 'openapi-fetch';
import type { components, paths } from './${paths}.js';

const multipart = (parts: Record<string, Blob>): FormData => {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) form.append(name, part);
  return form;
};

export async function calls(id: string, file: Blob): Promise<void> {
  const api = createClient<paths>({ baseUrl: 'http://localhost' });
  const workspace = { params: { path: { id } } };
  await api.POST('/api/workspaces', { body: { name: 'Reading list', description: 'Papers', isPublic: false } });
  await api.POST('/api/workspaces', { body: { title: 'Reading list' } });
  // @ts-expect-error a number is no workspace
  await api.POST('/api/workspaces', { body: 42 });
  // @ts-expect-error a misspelt name
  await api.POST('/api/workspaces', { body: { nmae: 'typo' } });
  // @ts-expect-error neither name nor title
  await api.POST('/api/workspaces', { body: { description: 'unnamed' } });
  // openapi-fetch infers its options generically, which skips TypeScript's excess-property check, so
  // the closed type shows where a body is declared as such.
  // @ts-expect-error an unknown field beside the name
  const closed: components['schemas']['WorkspaceCreateInput'] = { name: 'Reading list', colour: 'red' };
  await api.POST('/api/workspaces', { body: closed });
  await api.POST('/api/workspaces/{id}/resources', { ...workspace, body: { title: 'A paper', url: 'https://example.org', tags: ['x'] } });
  await api.POST('/api/workspaces/{id}/resources', { ...workspace, body: { resourceId: 'arxiv:1706.03762', notes: 'Read it' } });
  // @ts-expect-error a number is no resource
  await api.POST('/api/workspaces/{id}/resources', { ...workspace, body: 42 });
  // @ts-expect-error a misspelt title
  await api.POST('/api/workspaces/{id}/resources', { ...workspace, body: { titel: 'typo' } });
  // @ts-expect-error neither title nor resourceId
  await api.POST('/api/workspaces/{id}/resources', { ...workspace, body: { url: 'https://example.org' } });
  await api.POST('/api/profile/avatar', { body: { file }, bodySerializer: multipart });
  // @ts-expect-error a path is not the file
  await api.POST('/api/profile/avatar', { body: { file: '/home/me/avatar.png' } });
}
`;

describe('a client generated from the document', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp();
    dir = mkdtempSync(join(NODE_MODULES, '.api-client-types-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it("types the workspace and resource bodies exactly, and the avatar file as a Blob (the web app's schema.d.ts and the bearer dialect)", async () => {
    const bearer = await t.app.inject({ method: 'GET', url: '/api/openapi.json?dialect=bearer' });
    expect(bearer.statusCode).toBe(200);
    writeFileSync(join(dir, 'cookie.ts'), readFileSync(API_TYPES_FILE, 'utf8'));
    writeFileSync(join(dir, 'bearer.ts'), await clientTypesOf(bearer.json()));
    writeFileSync(join(dir, 'cookie-calls.ts'), CALLS('cookie'));
    writeFileSync(join(dir, 'bearer-calls.ts'), CALLS('bearer'));
    const program = ts.createProgram([join(dir, 'cookie-calls.ts'), join(dir, 'bearer-calls.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const line =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
          : 0;
      return `${diagnostic.file?.fileName.split('/').pop()}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 60_000);
});

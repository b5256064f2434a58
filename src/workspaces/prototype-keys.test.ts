/**
 * Every lookup a workspace route makes by a string a user supplies (a style id, an upload's content
 * type, a type read from an imported file, a resource's own type in exports and citations) finds only
 * its own keys: `__proto__`, `constructor` and `toString` are unknown names, never a 500 (issue 33,
 * item 7; `style=constructor` was a 500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { addResource, createWorkspace } from './test-support/helpers.js';

const INHERITED = ['__proto__', 'constructor', 'toString'] as const;

let t: TestApp;
let owner: TestUser;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await buildUser(t.app);
  workspaceId = (await createWorkspace(t.app, owner)).id;
}, 60_000);
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.bearer });

describe('lookups by a user-supplied name ignore inherited keys', () => {
  it.each(INHERITED)('GET /cite?style=%s is a 400 naming the style', async (style) => {
    const { id } = await addResource(t.app, owner, workspaceId, { title: `Cited as ${style}` });
    const res = await get(`/api/workspaces/${workspaceId}/cite?resourceIds=${id}&style=${style}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.field).toBe('style');
  });

  it.each(INHERITED)(
    'a resource of type %s is cited and exported as a resource of no known type',
    async (type) => {
      const { id } = await addResource(t.app, owner, workspaceId, {
        title: `Typed ${type}`,
        type,
        url: `https://example.org/typed/${type}`,
      });
      const cited = await get(`/api/workspaces/${workspaceId}/cite?resourceIds=${id}&style=apa`);
      expect(cited.statusCode, cited.body).toBe(200);
      expect(cited.json().bibliography).toContain(`Typed ${type}`);
      const bibtex = await get(`/api/workspaces/${workspaceId}/export?format=bibtex`);
      expect(bibtex.statusCode, bibtex.body).toBe(200);
      const entry = bibtex.body
        .split(/^@/m)
        // The title as BibTeX has it: `_` escaped, a word with an inner capital braced (`{toString}`).
        .find((chunk) =>
          chunk.replace(/[{}]/g, '').includes(`Typed ${type.replaceAll('_', '\\_')}`),
        );
      expect(entry).toMatch(/^misc\{/);
      const ris = await get(`/api/workspaces/${workspaceId}/export?format=ris`);
      expect(ris.statusCode, ris.body).toBe(200);
      const record = ris.body
        .split(/^ER {2}-.*$/m)
        .find((chunk) => chunk.includes(`Typed ${type}`));
      expect(record).toMatch(/^TY {2}- (ELEC|GEN)$/m);
      const csl = await get(`/api/workspaces/${workspaceId}/export?format=csljson`);
      expect(csl.statusCode, csl.body).toBe(200);
      const item = csl
        .json<Array<{ title: string; type: unknown }>>()
        .find((entry) => entry.title === `Typed ${type}`);
      // An unknown word makes a document of that genre (docs/api.md, Records), never an inherited type.
      expect(item?.type).toBe('document');
    },
  );

  it.each(INHERITED)(
    'an uploaded part of content type %s is read by its text; a CSL-JSON item of that type has none',
    async (name) => {
      const boundary = `----rwproto${name.length}`;
      const file = JSON.stringify([{ id: 'x', type: name, title: `Imported ${name}` }]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/import?dryRun=true`,
        headers: { ...owner.bearer, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
          `filename="x.json"\r\nContent-Type: ${name}\r\n\r\n${file}\r\n--${boundary}--\r\n`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        format: 'csljson',
        entries: [
          { outcome: 'would_import', resource: { title: `Imported ${name}`, type: 'document' } },
        ],
      });
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { addResource, annotate, createWorkspace } from '../workspaces/test-support/helpers.js';
import { escapeHtml } from './escape-html.js';
import { stripHtml } from './sanitize.js';

/** A tag, comment or declaration as an HTML parser would read it. */
const TAG = /<[a-z!?/]/i;

describe('stripHtml', () => {
  it('gives plain text back trimmed, quotes and ">" included', () => {
    expect(stripHtml('  a > b, "quoted" and \'single\'\n')).toBe('a > b, "quoted" and \'single\'');
  });

  it('removes tags, keeps their text, and drops scripts', () => {
    expect(stripHtml('<b>bold</b> <i>and</i> <script>alert(1)</script>text')).toBe('bold and text');
  });

  it('decodes entities that spell text', () => {
    expect(stripHtml('Fish &amp; chips &lt;3, p &lt; 0.05 &amp; AT&T')).toBe(
      'Fish & chips <3, p < 0.05 & AT&T',
    );
  });

  it.each([
    ['&lt;script&gt;alert(1)&lt;/script&gt;Hello', 'Hello'],
    ['&#60;img src=x onerror=alert(1)&#62;caption', 'caption'],
    ['&lt;b onmouseover=x()&gt;bold&lt;/b&gt;', 'bold'],
    ['&amp;lt;i&amp;gt;in vitro&amp;lt;/i&amp;gt;', 'in vitro'],
    ['<<b>script>alert(1)<</b>/script>after', 'after'],
    ['&lt;!-- hidden --&gt;shown', 'shown'],
    ['x &lt y', 'x < y'],
  ])('markup spelled by entities is stripped too: %s → %s', (input, expected) => {
    expect(stripHtml(input)).toBe(expected);
  });

  it('leaves no markup even when it is encoded many times over, and is idempotent', () => {
    const inputs = [
      `${'&amp;'.repeat(1)}amp;amp;amp;amp;amp;lt;script&amp;amp;amp;amp;amp;amp;gt;`,
      '&lt;script&gt;',
      'plain & simple <3',
    ];
    for (const input of inputs) {
      const once = stripHtml(input);
      expect(once).not.toMatch(TAG);
      expect(once).not.toMatch(/&(lt|gt|#\d+|#x[0-9a-f]+);?/i);
      expect(stripHtml(once)).toBe(once);
    }
  });
});

describe('escapeHtml', () => {
  it('escapes markup characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});

const ENCODED = '&lt;script&gt;alert(1)&lt;/script&gt;';

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`text fields stay plain text (${leg.name})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      user = await buildUser(t.app);
    });
    afterAll(async () => t?.close());

    it('profile displayName and bio', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile',
        headers: user.bearer,
        payload: { displayName: `Ada${ENCODED}`, bio: `Bio ${ENCODED}here` },
      });
      expect(res.statusCode).toBe(200);
      const read = await t.app.inject({ method: 'GET', url: '/api/profile', headers: user.bearer });
      expect(read.json().profile).toMatchObject({ displayName: 'Ada', bio: 'Bio here' });
    });

    it('sign-up name', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          email: 'plain-name@example.org',
          password: 'tidal-quasar-42',
          name: `Grace ${ENCODED}Hopper`,
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().user.name).toBe('Grace Hopper');
    });

    it('workspace name and description, resource title and notes, annotation body, as stored and read back', async () => {
      const workspace = await createWorkspace(t.app, user, {
        name: `Reading ${ENCODED}list`,
        description: `About &lt;img src=x onerror=alert(1)&gt;things`,
      });
      const resource = await addResource(t.app, user, workspace.id, {
        title: `Paper ${ENCODED}`,
        notes: `Note &amp;lt;b&amp;gt;one&amp;lt;/b&amp;gt;`,
      });
      await annotate(t.app, user, resource.id, { body: `Body ${ENCODED}text` });
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspace.id}`,
        headers: user.bearer,
      });
      const body = read.json<BearerReply<'WorkspaceDetailEnvelope'>>();
      expect(body.workspace).toMatchObject({ name: 'Reading list', description: 'About things' });
      expect(body.resources[0]).toMatchObject({ title: 'Paper', notes: 'Note one' });
      expect(body.resources[0]!.annotations[0]!.body).toBe('Body text');
      expect(read.body).not.toMatch(/<script|<img|<b>/i);
    });
  });
}

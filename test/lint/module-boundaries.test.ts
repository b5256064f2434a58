/**
 * The module boundaries are an ESLint rule (eslint.config.js, `boundaries/dependencies`), run by
 * `npm run lint` over every file in src/. These cases lint small snippets as if they were files in src/,
 * so that a configuration which stopped refusing crossings (a pattern that no longer matches, a policy
 * that allows too much) fails here rather than passing the lint in silence.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: join(ROOT, 'eslint.config.js'),
  // Only the boundary rule, so the snippets need no type information (they are not in tsconfig's project).
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'boundaries/dependencies',
});

/** The boundary errors for `code` linted as the file at `path` (relative to the repository). */
async function crossings(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return (result?.messages ?? []).map(
    (message) => `${message.ruleId ?? 'parse'}: ${message.message}`,
  );
}

describe('module boundaries (the lint rule)', () => {
  it('refuses platform/ importing a capability, even its index.ts', async () => {
    expect(
      await crossings('src/platform/snippet.ts', "export { requireUser } from '../auth/index.js';"),
    ).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: .*"platform".*"capability".*name="auth"/),
    ]);
  });

  it('refuses a capability reaching into another past its index.ts, and lets it through the index', async () => {
    expect(
      await crossings(
        'src/search/snippet.ts',
        "export { recordSearch } from '../analytics/store.js';",
      ),
    ).toHaveLength(1);
    expect(
      await crossings(
        'src/search/snippet.ts',
        "export { recordSearch } from '../analytics/index.js';",
      ),
    ).toEqual([]);
    expect(
      await crossings(
        'src/search/snippet.ts',
        "export { ROUTE_LIMITS } from '../auth/rate-limits.js';",
      ),
    ).toHaveLength(1);
  });

  it('lets a capability use its own files, platform, config and context', async () => {
    const code = [
      "export { normalizeEmail } from './users.js';",
      "export { ApiError } from '../platform/errors.js';",
      "export type { Config } from '../config.js';",
      "export type { AppContext } from '../context.js';",
    ].join('\n');
    expect(await crossings('src/auth/snippet.ts', code)).toEqual([]);
  });

  it('lets tests use another capability’s test-support, and only tests', async () => {
    const code = "export * from '../workspaces/test-support/helpers.js';";
    expect(await crossings('src/analytics/snippet.test.ts', code)).toEqual([]);
    expect(await crossings('src/analytics/snippet.ts', code)).toHaveLength(1);
  });

  it('holds the files directly in src/ to their roles: only the composition root wires capabilities', async () => {
    // A capability never imports the composition root.
    expect(
      await crossings('src/search/snippet.ts', "export { buildApp } from '../app.js';"),
    ).toHaveLength(1);
    // The composition root may import any capability's files.
    expect(
      await crossings('src/app.ts', "export { requestChain } from './auth/request-chain.js';"),
    ).toEqual([]);
    // config.ts imports nothing of ours; context.ts reaches capabilities only through their index.ts.
    expect(
      await crossings('src/config.ts', "export { ApiError } from './platform/errors.js';"),
    ).toHaveLength(1);
    expect(
      await crossings('src/context.ts', "export type { SessionDeps } from './auth/sessions.js';"),
    ).toHaveLength(1);
    expect(
      await crossings('src/context.ts', "export type { SessionDeps } from './auth/index.js';"),
    ).toEqual([]);
    // A new file in src/ with no declared role may import nothing of ours.
    expect(
      await crossings('src/helpers.ts', "export { requireUser } from './auth/index.js';"),
    ).toHaveLength(1);
  });
});

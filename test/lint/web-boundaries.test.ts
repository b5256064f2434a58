/**
 * The web app's layers and features' layout are ESLint rules (web/eslint.web.js: `boundaries/dependencies`
 * and `boundaries/no-unknown-files`), run by `npm run lint` over web/src. These cases lint small snippets
 * as if they were files of web/src, so that a configuration which stopped refusing (a pattern that no
 * longer matches, a policy that allows too much) fails here rather than passing the lint in silence.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: join(ROOT, 'eslint.config.js'),
  // Only the boundary rules, so the snippets need no type information (they are not in web's project).
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
  ruleFilter: ({ ruleId }) =>
    ruleId === 'boundaries/dependencies' || ruleId === 'boundaries/no-unknown-files',
});

/** The boundary errors for `code` linted as the file at `path` (relative to web/src). */
async function refusals(path: string, code = 'export {};'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, 'web/src', path) });
  return (result?.messages ?? []).map(
    (message) => `${message.ruleId ?? 'parse'}: ${message.message}`,
  );
}

describe("the web app's boundaries (the lint rules)", () => {
  it('goes one way: shared code imports no feature, page or app; a feature no page or app; a page not app/', async () => {
    expect(await refusals('lib/snippet.ts', "export { routes } from '../app/routes';")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: shared code .* imports a app/),
    ]);
    expect(
      await refusals(
        'components/Snippet.tsx',
        "export { MembersSection } from '../features/members/components/MembersSection';",
      ),
    ).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: shared code .* imports a feature/),
    ]);
    expect(
      await refusals(
        'features/members/components/Snippet.tsx',
        "export { routes } from '../../../app/routes';",
      ),
    ).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: features\/members imports a app/),
    ]);
    expect(
      await refusals(
        'features/members/hooks/use-snippet.ts',
        "export { JoinPage } from '../../../pages/join/JoinPage';",
      ),
    ).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: features\/members imports a page/),
    ]);
    expect(
      await refusals(
        'pages/join/Snippet.tsx',
        "export { RequireAuth } from '../../app/require-auth';",
      ),
    ).toEqual([expect.stringMatching(/^boundaries\/dependencies: a page imports app\//)]);
    // Downward is the way: a feature uses shared code, a page a feature, app/ a page.
    expect(
      await refusals(
        'features/members/components/Snippet.tsx',
        "export { useSession } from '../../../lib/session';",
      ),
    ).toEqual([]);
    expect(
      await refusals(
        'pages/join/Snippet.tsx',
        "export { MembersSection } from '../../features/members/components/MembersSection';",
      ),
    ).toEqual([]);
    expect(
      await refusals('app/snippet.tsx', "export { JoinPage } from '../pages/join/JoinPage';"),
    ).toEqual([]);
  });

  it('keeps a feature out of another feature', async () => {
    expect(
      await refusals(
        'features/members/components/Snippet.tsx',
        "export { ResultCard } from '../../search/components/ResultCard';",
      ),
    ).toEqual([
      expect.stringMatching(
        /^boundaries\/dependencies: features\/members imports features\/search/,
      ),
    ]);
  });

  it('holds every feature to one layout: components/*.tsx, hooks/use-*.ts, api/*.ts, other modules beside them', async () => {
    for (const placed of [
      'features/members/components/Snippet.tsx',
      'features/members/hooks/use-snippet.ts',
      'features/members/api/snippet.ts',
      'features/members/snippet.ts',
      'features/members/snippet.test.ts',
    ])
      expect(await refusals(placed), placed).toEqual([]);
    for (const misplaced of [
      'features/members/Snippet.tsx',
      'features/members/use-snippet.ts',
      'features/members/hooks/Snippet.tsx',
      'features/members/utils/snippet.ts',
      'features/members/components/deeper/Snippet.tsx',
    ])
      expect(await refusals(misplaced), misplaced).toEqual([
        expect.stringMatching(/^boundaries\/no-unknown-files: /),
      ]);
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  NODE_VERSION_FILES,
  needsIsolation,
  sharedAppTestFiles,
  sharesModuleGraph,
  unitTestFiles,
} from './test-projects.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('which project a test file runs in', () => {
  it('gives a file that starts an app, a database or a browser, or touches global state, a module graph of its own', () => {
    expect(needsIsolation("import { buildTestApp } from '../../test/support/app.js';")).toBe(true);
    expect(needsIsolation('const url = process.env.TEST_DATABASE_URL;')).toBe(true);
    expect(needsIsolation('vi.useFakeTimers();')).toBe(true);
    expect(needsIsolation("vi.mock('./store.js');")).toBe(true);
    expect(needsIsolation("import { rank } from './rank.js';\nexpect(rank([])).toEqual([]);")).toBe(
      false,
    );
  });

  it('puts pure files in unit, and never an app test, a journey or an end-to-end test', () => {
    const unit = unitTestFiles(ROOT);
    expect(unit).toContain('src/search/rank.test.ts');
    expect(unit).toContain('test/support/sequencer.test.ts');
    expect(unit).not.toContain('src/auth/auth.test.ts');
    expect(
      unit.filter(
        (file) =>
          file.startsWith('test/web/') ||
          file.startsWith('test/e2e/') ||
          file.endsWith('.browser.test.ts'),
      ),
    ).toEqual([]);
  });

  it('lets an app file share the module graph only when it changes no global state', () => {
    expect(sharesModuleGraph("import { buildTestApp } from '../../test/support/app.js';")).toBe(
      true,
    );
    expect(sharesModuleGraph("vi.mock('./store.js');")).toBe(false);
    expect(sharesModuleGraph('vi.useFakeTimers();')).toBe(false);
    expect(sharesModuleGraph("process.env.APP_ORIGIN = 'x';")).toBe(false);
    expect(sharesModuleGraph("process.env['APP_ORIGIN'] ??= 'x';")).toBe(false);
    expect(sharesModuleGraph('delete process.env.APP_ORIGIN;')).toBe(false);
    expect(sharesModuleGraph("Object.assign(process.env, { APP_ORIGIN: 'x' });")).toBe(false);
    // Reading the environment changes nothing: the store legs read TEST_DATABASE_URL.
    expect(sharesModuleGraph('const url = process.env.TEST_DATABASE_URL!;')).toBe(true);
    expect(sharesModuleGraph("if (process.env.CI === 'true') run();")).toBe(true);
    const shared = sharedAppTestFiles(ROOT);
    expect(shared).toContain('src/workspaces/resources/resources.test.ts');
    expect(shared.filter((file) => unitTestFiles(ROOT).includes(file))).toEqual([]);
  });

  it('runs again on Node 20 only end-to-end files that exist', () => {
    expect(NODE_VERSION_FILES.length).toBeGreaterThan(0);
    for (const file of NODE_VERSION_FILES) {
      expect(file).toMatch(/^test\/e2e\/[\w-]+\.test\.ts$/);
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    }
  });
});

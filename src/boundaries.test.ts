/**
 * The arrows between folders (docs/design.md, Layout): `platform/` knows no capability, and a capability
 * uses another only through that capability's `index.ts`. The files directly in `src/` (app.ts,
 * context.ts, rate-limits.ts…) wire the capabilities together and may import any of them. Tests
 * (platform's too) may also use another capability's `test-support/`: factories that drive its API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative module specifiers of a file's static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g)) found.push(match[1]!);
  return found;
}

/** Folder path inside src/ of a file, split: ['workspaces', 'routes.ts'], or ['app.ts'] for a root file. */
function partsOf(path: string): string[] {
  return relative(SRC, path).split(sep);
}

/** Why importing `target` from `file` crosses a boundary, or null when it may. */
export function violation(file: string, target: string): string | null {
  const from = partsOf(file);
  const to = partsOf(target);
  if (to[0] === '..' || to.length < 2) return null; // outside src/ (test/support) or a root file
  if (from.length < 2) return null; // a root file wires everything
  const [fromFolder] = from;
  const [toFolder] = to;
  if (fromFolder === toFolder) return null;
  if (file.endsWith('.test.ts') && to[1] === 'test-support') return null;
  if (fromFolder === 'platform') return `platform/ imports the ${toFolder} capability`;
  if (toFolder === 'platform') return null;
  if (to.length === 2 && to[1] === 'index.ts') return null;
  return `${fromFolder} reaches into ${toFolder} past its index.ts`;
}

function crossings(): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      const problem = violation(file, target);
      if (problem) problems.push(`${relative(SRC, file)} → ${specifier}: ${problem}`);
    }
  }
  return problems;
}

describe('module boundaries', () => {
  it('has no capability importing another past its index.ts, and no platform module importing a capability', () => {
    expect(crossings()).toEqual([]);
  });

  it('finds every kind of crossing it is meant to refuse', () => {
    const at = (path: string) => join(SRC, ...path.split('/'));
    expect(violation(at('auth/users.ts'), at('profiles/store.ts'))).toBe('auth reaches into profiles past its index.ts');
    expect(violation(at('platform/rate-limit.ts'), at('auth/index.ts'))).toBe('platform/ imports the auth capability');
    expect(violation(at('platform/cache.ts'), at('workspaces/test-support/helpers.ts'))).toBe('platform/ imports the workspaces capability');
    expect(violation(at('platform/cache.test.ts'), at('workspaces/store.ts'))).toBe('platform/ imports the workspaces capability');
    expect(violation(at('search/routes.ts'), at('analytics/store.ts'))).toBe('search reaches into analytics past its index.ts');
    expect(violation(at('search/routes.ts'), at('workspaces/test-support/helpers.ts'))).toBe('search reaches into workspaces past its index.ts');
    expect(violation(at('search/routes.ts'), at('analytics/index.ts'))).toBeNull();
    expect(violation(at('analytics/analytics.test.ts'), at('workspaces/test-support/helpers.ts'))).toBeNull();
    expect(violation(at('app.ts'), at('search/service.ts'))).toBeNull();
    expect(importsOf("import { a } from '../x/y.js';\nexport { b } from './z.js';\nconst c = await import('../w/index.js');")).toEqual([
      '../x/y.js',
      './z.js',
      '../w/index.js',
    ]);
  });
});

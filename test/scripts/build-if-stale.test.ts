/**
 * `npm start` builds only what is missing or older than its sources (scripts/build-if-stale.mjs), so
 * a fresh clone's first start builds and later starts do not rebuild the service and the web app.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILDS, staleBuilds } from '../../scripts/build-if-stale.mjs';
import { ROOT } from '../support/build-once.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes a file dated `secondsAgo` in the past. */
function file(root: string, path: string, secondsAgo: number): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, path);
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(full, at, at);
}

describe('npm start', () => {
  it('runs the build only when it is stale (its prestart is build-if-stale, not a full build)', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.prestart).toBe('node scripts/build-if-stale.mjs');
    expect(BUILDS.map((build) => `npm run ${build.script}`).join(' && ')).toBe(scripts.build);
  });
});

describe('staleBuilds', () => {
  const sources = () => {
    const root = mkdtempSync(join(tmpdir(), 'rw-stale-'));
    roots.push(root);
    for (const path of [
      'src/main.ts',
      'src/auth/routes.ts',
      'tsconfig.json',
      'package-lock.json',
      'web/src/main.tsx',
      'web/index.html',
    ])
      file(root, path, 60);
    return root;
  };

  it('builds both on a fresh clone (no output yet)', () => {
    expect(staleBuilds(sources())).toEqual(['build:service', 'build:web']);
  });

  it('builds nothing when both outputs are newer than every source', () => {
    const root = sources();
    file(root, 'dist/main.js', 10);
    file(root, 'web/dist/index.html', 10);
    expect(staleBuilds(root)).toEqual([]);
  });

  it('rebuilds only the part whose sources changed since', () => {
    const root = sources();
    file(root, 'dist/main.js', 10);
    file(root, 'web/dist/index.html', 10);
    file(root, 'src/auth/routes.ts', 1);
    expect(staleBuilds(root)).toEqual(['build:service']);
    file(root, 'dist/main.js', 0);
    file(root, 'web/src/features/new.tsx', 1);
    expect(staleBuilds(root)).toEqual(['build:web']);
  });
});

describe('npm start on an install without devDependencies (npm ci --omit=dev)', () => {
  /** A checkout with the prestart script and no node_modules: the build tools are not there. */
  const checkout = () => {
    const root = mkdtempSync(join(tmpdir(), 'rw-omit-dev-'));
    roots.push(root);
    for (const path of ['src/main.ts', 'package-lock.json', 'web/src/main.tsx'])
      file(root, path, 60);
    mkdirSync(join(root, 'scripts'));
    copyFileSync(
      join(ROOT, 'scripts', 'build-if-stale.mjs'),
      join(root, 'scripts', 'build-if-stale.mjs'),
    );
    return root;
  };
  const prestart = (root: string) =>
    spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], {
      cwd: root,
      encoding: 'utf8',
    });

  it('refuses to start when nothing was built, saying how to build first', () => {
    const run = prestart(checkout());
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('dist/main.js and web/dist/index.html not built');
    expect(run.stderr).toContain('npm ci && npm run build && npm prune --omit=dev');
  });

  it('starts what was built before the tools were pruned, even if the sources are newer', () => {
    const root = checkout();
    file(root, 'dist/main.js', 120);
    file(root, 'web/dist/index.html', 120);
    const run = prestart(root);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('the build tools are not installed; starting what is there');
  });
});

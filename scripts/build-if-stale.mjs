// `npm start`'s prestart: builds the service (dist/) and the web app (web/dist/) only when one is
// missing or older than what it is built from, so a start after `npm install` on a fresh clone
// builds once and every later start does not. Plain JavaScript: it runs before anything is compiled.
// The build tools (TypeScript, Vite, the web app's packages) are devDependencies: an install with
// --omit=dev runs what was built before it was pruned, and refuses to start without a build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

/** What each build makes, and what it is made from (files, or folders walked whole). */
export const BUILDS = [
  {
    script: 'build:service',
    output: 'dist/main.js',
    inputs: ['src', 'drizzle', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
  },
  {
    script: 'build:web',
    output: 'web/dist/index.html',
    inputs: [
      'web/src',
      // The Markdown rules and the escaping the app shares with the service (web/src/lib/markdown.ts).
      'src/platform/note-markdown.ts',
      'src/platform/escape-html.ts',
      'web/public',
      'web/index.html',
      'web/vite.config.ts',
      'web/tsconfig.json',
      'package-lock.json',
    ],
  },
];

/** The newest modification time (ms) under a file or folder; 0 when it does not exist. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The build scripts whose output is missing or older than one of its inputs, under `root`. */
export function staleBuilds(root) {
  return BUILDS.filter(({ output, inputs }) => {
    const outputPath = join(root, output);
    if (!existsSync(outputPath)) return true;
    const built = statSync(outputPath).mtimeMs;
    return inputs.some((input) => newestMtime(join(root, input)) > built);
  }).map(({ script }) => script);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const stale = staleBuilds(root);
  if (stale.length === 0) {
    process.stdout.write('dist/ and web/dist/ are current: nothing to build\n');
  } else if (!existsSync(join(root, 'node_modules', 'typescript'))) {
    // An install without devDependencies cannot build; it runs what was built for it, if anything was.
    const missing = BUILDS.filter(({ output }) => !existsSync(join(root, output)));
    if (missing.length > 0) {
      process.stderr.write(
        `${missing.map(({ output }) => output).join(' and ')} not built, and the build tools (devDependencies) are not installed.\n` +
          'Build before leaving them out: npm ci && npm run build && npm prune --omit=dev (see docs/operations.md, Install for production).\n',
      );
      process.exit(1);
    }
    process.stdout.write(
      `${stale.join(', ')}: older than the sources, but the build tools are not installed; starting what is there\n`,
    );
  } else {
    for (const script of stale) {
      const result = spawnSync('npm', ['run', script], {
        cwd: root,
        stdio: 'inherit',
        shell: process.platform === 'win32',
      });
      if (result.status !== 0) process.exit(result.status ?? 1);
    }
  }
}

// ESLint (flat config) for the TypeScript sources: typescript-eslint's `recommended` set plus the
// type-aware rules that catch real bugs with promises and types. `npm run lint` runs this, then knip.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import webConfig from './web/eslint.web.js';

/** Selectors of the module boundaries (the last block). */
const PLATFORM = { element: { types: 'platform' } };
const CAPABILITY = { element: { types: 'capability' } };
const CAPABILITY_INDEX = { element: { types: 'capability' }, file: { categories: 'index' } };
const TEST_SUPPORT = { file: { categories: 'test-support' } };
const inRoot = (category) => ({ element: { types: 'root' }, file: { categories: category } });

export default defineConfig(
  {
    // Build output, data and generated files.
    ignores: [
      'dist/',
      '.test-build/',
      '.bench-build/',
      'data/',
      'coverage/',
      'test-artifacts/',
      'scratch/',
      'web/dist/',
      '.test-build-web/',
      'drizzle/',
      // Written by `npm run web:api` from the OpenAPI document (its descriptions are long lines).
      'web/src/api/schema.d.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The type-aware rules, on TypeScript only (this file is plain JavaScript, with no types to read).
    files: ['**/*.ts'],
    ignores: ['web/src/**'],
    languageOptions: {
      parserOptions: {
        // Type information from tsconfig.json, which includes src/, test/, bench/, scripts/ and the tool configs.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits or catches loses its rejection; fire-and-forget has to say so with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a plain callback is expected (an event listener, a `forEach`, a hook typed
      // as the callback kind) drops its rejection; a promise in a condition is always true.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Its automatic fix is not always right (on an evolving `let last;`, or on a literal the assertion
      // types): run tsc after `eslint --fix`.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // `recommended` leaves `no-non-null-assertion` off: tests assert `rows[0]!` after checking the length.
      // A deliberately unused binding is prefixed with `_` (e.g. a destructured field being left out).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The arrows between the service's folders (README, Layout). Every file in src/ belongs to one element:
    //   app        the composition root: app.ts, main.ts, web-app.ts, background.ts (and their tests)
    //              wire everything;
    //   config     config.ts, the environment schema, which imports nothing of ours;
    //   context    context.ts, the dependencies handed to every capability;
    //   platform   src/platform/: cross-cutting machinery that knows no capability;
    //   capability any other folder of src/ (auth, workspaces, …).
    // A capability uses its own files, platform, config and context, and another capability only
    // through that one's index.ts. Tests may also use another capability's test-support/ (factories
    // that drive its API), and platform's tests may boot the app. Anything not allowed is refused.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      // `./x.js` in an import names `./x.ts`: the TypeScript resolver maps it as tsc does.
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': [
        { type: 'platform', pattern: 'src/platform', partialMatch: false },
        { type: 'capability', pattern: 'src/*', partialMatch: false, capture: ['name'] },
        { type: 'root', pattern: 'src', partialMatch: false },
      ],
      'boundaries/files': [
        { category: 'test', pattern: '**/*.test.ts' },
        { category: 'test-support', pattern: 'src/*/test-support/**' },
        { category: 'index', pattern: 'src/*/index.ts' },
        { category: 'app', pattern: 'src/{app,main,web-app,background}{,.test}.ts' },
        { category: 'config', pattern: 'src/config{,.test}.ts' },
        { category: 'context', pattern: 'src/context.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            {
              from: inRoot('app'),
              allow: { to: [{ element: { types: ['root', 'platform', 'capability'] } }] },
            },
            { from: inRoot('config'), allow: { to: inRoot('config') } },
            {
              from: inRoot('context'),
              allow: { to: [inRoot('config'), PLATFORM, CAPABILITY_INDEX] },
            },
            { from: PLATFORM, allow: { to: [PLATFORM, inRoot('config')] } },
            {
              from: { ...PLATFORM, file: { categories: 'test' } },
              allow: { to: [inRoot('app'), inRoot('context'), TEST_SUPPORT] },
            },
            {
              from: CAPABILITY,
              allow: {
                to: [
                  {
                    element: {
                      types: 'capability',
                      captured: { name: '{{ from.element.captured.name }}' },
                    },
                  },
                  CAPABILITY_INDEX,
                  PLATFORM,
                  inRoot('config'),
                  inRoot('context'),
                ],
              },
            },
            { from: { ...CAPABILITY, file: { categories: 'test' } }, allow: { to: TEST_SUPPORT } },
          ],
        },
      ],
    },
  },
  // The web app (web/src, .ts and .tsx): its own type information and React's rules.
  ...webConfig,
  {
    // Every file linted here (the service, tests, bench, scripts, configs and the web app). Prettier
    // lays out code at 100 columns, but leaves long strings, template literals and comments alone;
    // this catches what it leaves: no line passes 160 characters unless it holds a URL. Split a long
    // description into concatenated pieces and re-flow a long comment. (`max-len` is deprecated in
    // favour of formatters, but still ships with ESLint and does exactly this.)
    rules: {
      'max-len': [
        'error',
        {
          code: 160,
          ignoreUrls: true,
          ignoreComments: false,
          ignoreStrings: false,
          ignoreTemplateLiterals: false,
        },
      ],
    },
  },
);

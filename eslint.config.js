// ESLint (flat config) for the TypeScript sources: typescript-eslint's `recommended` set plus the
// type-aware rules that catch real bugs with promises and types. `npm run lint` runs this, then knip.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import webConfig from './web/eslint.web.js';

export default defineConfig(
  {
    // Build output, data and generated files.
    ignores: ['dist/', '.test-build/', '.bench-build/', 'data/', 'coverage/', 'test-artifacts/', 'scratch/', 'web/dist/', '.test-build-web/', 'drizzle/'],
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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  // The web app (web/src, .ts and .tsx): its own type information and React's rules.
  ...webConfig,
);

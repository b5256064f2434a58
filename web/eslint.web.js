// The web app's ESLint blocks, imported by the root eslint.config.js: typescript-eslint's type-checked
// set with the types of web/tsconfig.json, React's rules of hooks, and bulletproof-react's rules:
//   - one way: shared (api/, components/, lib/) → features → pages → app (main.tsx, app/); nothing
//     imports from a layer above it;
//   - one feature does not import another (pages compose features; what two features share lives in
//     api/, components/ or lib/);
//   - one inner layout for every feature: features/<name>/components/ its components (.tsx),
//     hooks/ its hooks (use-*.ts), api/ its requests, and beside them its other modules (schemas,
//     state, helpers) and CSS. A file anywhere else in a feature belongs to no element, and
//     boundaries/no-unknown-files reports it.
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const WEB_SOURCES = ['web/src/**/*.{ts,tsx}'];

export default [
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: WEB_SOURCES })),
  {
    files: WEB_SOURCES,
    languageOptions: {
      parserOptions: {
        project: './web/tsconfig.json',
        tsconfigRootDir: import.meta.dirname + '/..',
      },
    },
    plugins: { 'react-hooks': reactHooks, boundaries },
    settings: {
      'boundaries/elements': [
        // A feature's files, by where they may sit (the layout above); each captures the feature's name.
        // `mode: 'full'` matches a whole file path, which the layout needs; boundaries 7 calls the option
        // deprecated (its replacement, `partialMatch: false`, matches folders only) and warns once a run.
        {
          type: 'feature',
          mode: 'full',
          pattern: 'web/src/features/*/components/*.tsx',
          capture: ['feature'],
        },
        {
          type: 'feature',
          mode: 'full',
          pattern: 'web/src/features/*/hooks/use-*.ts',
          capture: ['feature'],
        },
        {
          type: 'feature',
          mode: 'full',
          pattern: 'web/src/features/*/api/*.ts',
          capture: ['feature'],
        },
        {
          type: 'feature',
          mode: 'full',
          pattern: 'web/src/features/*/!(use-)*.ts',
          capture: ['feature'],
        },
        { type: 'shared', mode: 'full', pattern: 'web/src/{api,components,lib}/**' },
        { type: 'page', mode: 'full', pattern: 'web/src/pages/**' },
        { type: 'app', mode: 'full', pattern: 'web/src/{main.tsx,app/**}' },
      ],
      // Imports are written without extensions, as Vite resolves them.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // Every file of web/src belongs to a layer, and a feature's file to its place in the layout.
      'boundaries/no-unknown-files': 'error',
      // A missing dependency is a stale closure, a bug: an error, not a warning that piles up.
      'react-hooks/exhaustive-deps': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { type: ['feature', 'page', 'app'] } } },
              message:
                'shared code ({{ from.element.type }}: api/, components/, lib/) imports a {{ to.element.type }}: what it needs moves down to api/, components/ or lib/',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { type: ['page', 'app'] } } },
              message:
                'features/{{ from.element.captured.feature }} imports a {{ to.element.type }}: what it needs moves down to api/, components/ or lib/',
            },
            {
              from: { element: { type: 'page' } },
              disallow: { to: { element: { type: 'app' } } },
              message: 'a page imports app/: what it needs moves down to lib/',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: {
                to: {
                  element: {
                    type: 'feature',
                    captured: { feature: '!{{ from.element.captured.feature }}' },
                  },
                },
              },
              message:
                'features/{{ from.element.captured.feature }} imports features/{{ to.element.captured.feature }}: a page composes the two, or what they share moves to components/ or lib/',
            },
          ],
        },
      ],
      // `onDone(): void` in a props type is a method: its parameters are checked bivariantly, and
      // destructuring it from props trips unbound-method. Callbacks are properties.
      '@typescript-eslint/method-signature-style': ['error', 'property'],
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
];

// The web app's ESLint blocks, imported by the root eslint.config.js: typescript-eslint's type-checked
// set with the types of web/tsconfig.json, React's rules of hooks, and bulletproof-react's rule that one
// feature does not import another (pages compose features; what two features share lives in api/,
// components/ or lib/).
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
        { type: 'feature', pattern: 'web/src/features/*', capture: ['feature'] },
      ],
      // Imports are written without extensions, as Vite resolves them.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // A missing dependency is a stale closure, a bug: an error, not a warning that piles up.
      'react-hooks/exhaustive-deps': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
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
                'features/{{ from.element.captured.feature }} imports features/{{ ' +
                'to.element.captured.feature }}: a page composes the two, or what they ' +
                'share moves to components/ or lib/',
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

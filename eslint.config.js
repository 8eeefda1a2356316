import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The server's layers (docs/architecture.md): config <- db <- platform <- ops <- modules
 * <- app.ts, main.ts, cli/. A file imports its own layer or a lower one, type-only
 * imports too (that is how the old circle through config.ts grew); the folders' names
 * are unique, so an import that runs up names the folder it reaches.
 */
const SERVER = 'apps/server/src';
const upInto = (folders, layer) => ({
  regex: `(^|/)(${folders.join('|')})/|(^|/)(app|main)\\.js$`,
  message: `${layer} may import only its own layer and those below it (config <- db <- platform <- ops <- modules <- app, main, cli): see docs/architecture.md.`,
});
/**
 * A module reaches another only through its face: `*-access.ts` (what other modules may
 * call), `*.queries.ts`, `*.presenter.ts` and `*.mails.ts`; never its service or routes.
 */
const throughFaces = {
  regex: '^\\.\\./[^./][^/]*/(?![^/]*(-access|\\.queries|\\.presenter|\\.mails)\\.js$)[^/]+$',
  message:
    "Another module's service, routes or inner files are its own: import its face (*-access.ts, *.queries.ts, *.presenter.ts, *.mails.ts), or move what you need into it. See docs/architecture.md.",
};
const layers = (files, patterns) => ({
  files: files.map((f) => `${SERVER}/${f}`),
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const serverLayers = [
  layers(['config/**'], [upInto(['db', 'platform', 'ops', 'modules', 'cli'], 'config')]),
  layers(['db/**'], [upInto(['platform', 'ops', 'modules', 'cli'], 'db')]),
  layers(['platform/**'], [upInto(['ops', 'modules', 'cli'], 'platform')]),
  layers(['ops/**'], [upInto(['modules', 'cli'], 'ops')]),
  layers(['modules/**'], [upInto(['cli'], 'A module'), throughFaces]),
  // Tests set their data up through any module's service, as a person would through the API.
  layers(['modules/**/*.test.ts'], [upInto(['cli'], 'A module')]),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      // The server's platform/data is source code, not a DATA_DIR.
      '!apps/server/src/platform/data/**',
      'bench/.data/**',
      '**/test-results/**',
      'playwright-report/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Command-line tools and build scripts talk to a person through the console.
    files: ['scripts/**', 'bench/**', 'docs/**', 'apps/server/src/cli/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
  ...serverLayers,
  prettier,
);

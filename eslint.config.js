// Lint for what the type checker cannot see: promises nobody awaits. Bot handlers, the outbox and the
// sandbox are async; an unawaited send is a lost message and an unhandled rejection crashes Node.
// Typed rules only, no style: formatting is not this tool's job.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  // dot folders too, as tsconfig's include skips them: tests make scratch bots in test/**/.tmp-*/
  // badsyntax: a bot that does not compile, on purpose (test/runtime/bot-failures.test.ts)
  { ignores: ['.build/', 'dist/', 'node_modules/', '.scratch/', 'coverage/', '.intrabot/', '**/.*/', 'test/fixtures/bots-broken/badsyntax/'] },
  {
    files: ['{src,test,bots,bench}/**/*.ts', '{bin,scripts}/**/*.mjs'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // tsconfig.json covers the .ts trees; bin/ is plain JS outside it, typed by a default project
        projectService: { allowDefaultProject: ['bin/*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // the example bots are what bot authors copy: they use the public API only, as a bots repository of
  // its own must (issue #14), never intrabot's sources or the sandbox's internals
  {
    files: ['bots/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src(/|$)',
              message: "A bot imports the framework by its package name: 'intrabot', 'intrabot/helpers' or, in tests, 'intrabot/testing'.",
            },
            { regex: '^intrabot/(?!(helpers|testing)$)', message: "intrabot's public entry points are 'intrabot', 'intrabot/helpers' and 'intrabot/testing'." },
            {
              regex: '^(\\.\\./)+test(/|$)',
              message: "A bot's tests take what they need from 'intrabot/testing' (startPair, testBot, freePort...), never from intrabot's own test helpers.",
            },
          ],
        },
      ],
    },
  },
]);

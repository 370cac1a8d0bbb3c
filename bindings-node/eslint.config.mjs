// ESLint flat config for the npm package (run by scripts/lint.sh): typescript-eslint's
// recommended rules over the TypeScript layer, ESLint's recommended rules over the tests
// and scripts (plain ESM run by node). Build output and the generated napi loader are
// not linted: they are compiled or generated from sources checked here or by clippy.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The globals of Node.js the .mjs files use (the `globals` package lists them all; this is
// the short list, to keep devDependencies small).
const node = Object.fromEntries(
  [
    'AbortController', 'AbortSignal', 'Buffer', 'URL', 'TextDecoder', 'TextEncoder', 'Response', 'Request',
    'Headers', 'ReadableStream', 'clearInterval', 'clearTimeout', 'console', 'fetch', 'performance',
    'process', 'queueMicrotask', 'setImmediate', 'setInterval', 'setTimeout', 'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['esm/**', 'cjs/**', 'native/**', 'node_modules/**'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // `...args: any[]`: the official SDK's callback types, whose arguments vary by overload.
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],
      // A leading underscore marks a parameter kept for the official SDK's signature.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: node },
  },
);

import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

// The layering of DESIGN.md: src-shared is runtime-free, and main and renderer never meet.
const sharedRestrictions = {
  paths: [
    ...nodeBuiltins.map((name) => ({ name, message: 'src-shared must not depend on Node.' })),
    { name: 'electron', message: 'src-shared must not depend on Electron.' },
    { name: 'react-dom', message: 'src-shared must not depend on the DOM.' },
    { name: 'react', message: 'src-shared must not depend on the UI.' },
  ],
  patterns: [
    { group: ['node:*'], message: 'src-shared must not depend on Node.' },
    { group: ['electron/*'], message: 'src-shared must not depend on Electron.' },
    {
      group: ['react-dom/*', 'react/*'],
      message: 'src-shared must not depend on the DOM or the UI.',
    },
    { group: ['**/src-main', '**/src-main/**'], message: 'src-shared must not import src-main.' },
    {
      group: ['**/src-renderer', '**/src-renderer/**'],
      message: 'src-shared must not import src-renderer.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-results/', 'playwright-report/'],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', sharedRestrictions],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'src-shared is runtime-free.' },
        { name: 'document', message: 'src-shared is runtime-free.' },
        { name: 'process', message: 'src-shared is runtime-free.' },
        { name: 'Buffer', message: 'src-shared is runtime-free; use Uint8Array.' },
        { name: 'setTimeout', message: 'The protocol core is sans-I/O: timers belong to drivers.' },
        {
          name: 'setInterval',
          message: 'The protocol core is sans-I/O: timers belong to drivers.',
        },
        { name: 'Date', message: 'The protocol core reads no clock; pass time in as an event.' },
        { name: 'crypto', message: 'Inject randomness instead of reading a global source.' },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-renderer', '**/src-renderer/**'],
              message: 'src-main and src-renderer never import each other.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer reaches main only through the IPC bridge.' },
          ],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a browser sandbox.' },
            {
              group: ['**/src-main', '**/src-main/**'],
              message: 'src-main and src-renderer never import each other.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);

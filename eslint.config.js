import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { countingTypeImports } from './scripts/lint/type-imports-count.js';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

// The layering of docs/architecture.md, "Layers": src-shared is runtime-free, and main and
// renderer never meet.
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

// The layering below the top level. Each restriction is `{ paths?, patterns? }` of
// no-restricted-imports; `restrict` below gives files the union of several.
const MAIN_NEVER_RENDERER = {
  patterns: [
    {
      group: ['**/src-renderer', '**/src-renderer/**'],
      message: 'src-main and src-renderer never import each other.',
    },
  ],
};
const RENDERER_IN_A_BROWSER = {
  paths: [{ name: 'electron', message: 'The renderer reaches main only through the IPC bridge.' }],
  patterns: [
    { group: ['node:*'], message: 'The renderer runs in a browser sandbox.' },
    {
      group: ['**/src-main', '**/src-main/**'],
      message: 'src-main and src-renderer never import each other.',
    },
  ],
};
const ENGINE_WITHOUT_SHELLS = {
  paths: [
    {
      name: 'electron',
      message: 'The engine runs under plain Node: only src-main/electron imports Electron.',
    },
  ],
  patterns: [
    {
      regex: '^(\\.\\./)+(src-main/)?(cli|desktop|electron|web-host)(/|$)',
      message:
        'The engine imports none of cli, desktop, electron or web-host: they are shells over it.',
    },
  ],
};
const ENGINE_INDEX =
  "The engine's public surface is its index: import src-main/engine, not its modules.";
const ENGINE_INDEX_ONLY = {
  patterns: [{ regex: '^\\.{1,2}/(.*/)?engine/', message: ENGINE_INDEX }],
};
const ENGINE_INDEX_ONLY_IN_TESTS = {
  patterns: [
    {
      regex: '^\\.{1,2}/(.*/)?engine/(?!test-support/)',
      message: `${ENGINE_INDEX} Tests may also use src-main/engine/test-support.`,
    },
  ],
};
const SIGNALING_ENTRY =
  "web-host uses only the signaling server's public entry, src-main/signaling-server.";
const SIGNALING_ENTRY_ONLY = {
  patterns: [{ regex: '^\\.{1,2}/(.*/)?signaling-server/', message: SIGNALING_ENTRY }],
};
const SIGNALING_ENTRY_ONLY_IN_TESTS = {
  patterns: [
    {
      regex: '^\\.{1,2}/(.*/)?signaling-server/(?!test-support/)',
      message: `${SIGNALING_ENTRY} Its tests may also use src-main/signaling-server/test-support.`,
    },
  ],
};
const NEVER_APP = {
  patterns: [
    {
      regex: '^(\\.{1,2}/)+(src-renderer/)?app(/|$)',
      message: 'Renderer components and screens never import from app/: app composes them.',
    },
  ],
};
const BROWSER_BACKEND_ON_DEMAND = {
  patterns: [
    {
      regex: '^(\\.{1,2}/)+(backend/)?browser(/|$)',
      message:
        'Only select-backend.ts loads the browser backend, with import(), so that the desktop renderer bundle does not carry it.',
    },
  ],
};

const MAIN_TESTS = ['src-main/**/*.test.ts', 'src-main/**/test-support/**/*.ts'];
const RENDERER_TESTS = ['src-renderer/**/*.test.{ts,tsx}', 'src-renderer/testing/**/*.{ts,tsx}'];
const COMPONENTS = ['src-renderer/components', 'src-renderer/screens'];

/** One config entry: `files` (less `ignores`) get exactly the union of `restrictions`. */
function restrict(files, restrictions, ignores = []) {
  const paths = restrictions.flatMap((restriction) => restriction.paths ?? []);
  const patterns = restrictions.flatMap((restriction) => restriction.patterns ?? []);
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

// A file keeps only the last `no-restricted-imports` it matches, so each entry below lists every
// restriction of its files, and the entries go from the general to the particular.
const layeringBelowTheTop = [
  // src-main never imports the renderer; outside the engine it imports only the engine's index.
  restrict(['src-main/**/*.ts'], [MAIN_NEVER_RENDERER, ENGINE_INDEX_ONLY]),
  restrict(MAIN_TESTS, [MAIN_NEVER_RENDERER, ENGINE_INDEX_ONLY_IN_TESTS]),
  restrict(
    ['src-main/web-host/**/*.ts'],
    [MAIN_NEVER_RENDERER, ENGINE_INDEX_ONLY, SIGNALING_ENTRY_ONLY],
    MAIN_TESTS,
  ),
  restrict(
    ['src-main/web-host/**/*.test.ts'],
    [MAIN_NEVER_RENDERER, ENGINE_INDEX_ONLY_IN_TESTS, SIGNALING_ENTRY_ONLY_IN_TESTS],
  ),
  restrict(['src-main/engine/**/*.ts'], [MAIN_NEVER_RENDERER, ENGINE_WITHOUT_SHELLS]),
  // Tests, benchmarks and scripts outside src-main reach the engine through its index too.
  restrict(
    ['e2e/**/*.ts', 'playwright.config.ts', 'test-support/**/*.ts'],
    [ENGINE_INDEX_ONLY_IN_TESTS],
  ),
  restrict(['bench/**/*.ts', 'scripts/**/*.ts'], [ENGINE_INDEX_ONLY]),
  // src-renderer runs in a browser sandbox, loads the browser backend only on demand, and has
  // app/ at the top: components and screens never import it.
  restrict(['src-renderer/**/*.{ts,tsx}'], [RENDERER_IN_A_BROWSER, BROWSER_BACKEND_ON_DEMAND]),
  restrict(['src-renderer/backend/browser/**/*.ts', ...RENDERER_TESTS], [RENDERER_IN_A_BROWSER]),
  restrict(
    COMPONENTS.map((folder) => `${folder}/**/*.{ts,tsx}`),
    [RENDERER_IN_A_BROWSER, NEVER_APP, BROWSER_BACKEND_ON_DEMAND],
    RENDERER_TESTS,
  ),
  restrict(
    COMPONENTS.map((folder) => `${folder}/**/*.test.{ts,tsx}`),
    [RENDERER_IN_A_BROWSER, NEVER_APP],
  ),
];

// No import cycles, type-only ones included (docs/architecture.md, "Layers"). import-x's
// no-cycle skips type imports, so it runs here over a view that counts them: see
// scripts/lint/type-imports-count.js. Packages cannot import Ferry's modules, so the walk stops
// at them.
const TS_PROJECTS = [
  'tsconfig.shared.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
  'tsconfig.e2e.json',
];
const noImportCycles = {
  files: ['**/*.{ts,tsx}'],
  plugins: {
    'import-x': {
      ...importX,
      rules: { ...importX.rules, 'no-cycle': countingTypeImports(importX.rules['no-cycle']) },
    },
  },
  settings: {
    'import-x/resolver-next': [
      createTypeScriptImportResolver({ project: TS_PROJECTS, noWarnOnMultipleProjects: true }),
    ],
    'import-x/parsers': {
      [fileURLToPath(new URL('./scripts/lint/type-imports-count.js', import.meta.url))]: [
        '.ts',
        '.tsx',
      ],
    },
  },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
};

// Secret comparisons: a commitment, a MAC or a proof compared with `===` stops at the first
// byte that differs, and so leaks through timing how much of it matched. Such values are named
// for what they are (…Proof, …Mac, …Commit, …Commitment) and go through `sameSecret`
// (src-shared/verify/same-secret.ts); comparing one with `undefined` or `null` is fine.
const SECRET_NAME = '/(proof|mac|commit|commitment)$/i';
const SECRET_COMPARISON =
  'Compare secret-derived values with sameSecret (src-shared/verify/same-secret.ts), not with an equality operator: it takes the same time however much matches.';
const secretComparisons = ['left', 'right'].flatMap((side) => {
  const other = side === 'left' ? 'right' : 'left';
  const notAbsent = `:not([${other}.name='undefined']):not([${other}.raw='null'])`;
  return [`${side}.name`, `${side}.property.name`].map((name) => ({
    selector: `BinaryExpression[operator=/^[!=]==?$/][${name}=${SECRET_NAME}]${notAbsent}`,
    message: SECRET_COMPARISON,
  }));
});

// Limits and deadlines are named once, in src-shared (docs/architecture.md, "Layers"): a
// top-level constant named like one (…_MS, …_BYTES, …_TIMEOUT, MAX_…) outside src-shared is refused,
// so that a second definition cannot drift from the first. Tests and their support may name their
// own.
const LIMIT_NAME = '/(^MAX_|_MS$|_BYTES$|_TIMEOUT$)/';
const LIMIT_OUTSIDE_SHARED =
  'Define limits and deadlines once, in src-shared (its limits files), and import them here.';
const limitsOutsideShared = ['Program >', 'Program > ExportNamedDeclaration >'].map((parent) => ({
  selector: `${parent} VariableDeclaration[kind='const'] > VariableDeclarator[id.name=${LIMIT_NAME}]`,
  message: LIMIT_OUTSIDE_SHARED,
}));

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
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...secretComparisons] },
  },
  {
    files: ['src-main/**/*.{ts,tsx}', 'src-renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test-support/**', '**/testing/**'],
    rules: { 'no-restricted-syntax': ['error', ...secretComparisons, ...limitsOutsideShared] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...layeringBelowTheTop,
  noImportCycles,
  prettier,
);

// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { circlesPlugin } from './dev/eslint-circles.mjs';
import { roomsPlugin } from './dev/eslint-rooms.mjs';

/** Temporal's SDK: only the engine (workflows/, activities/), the client room (src/client) and temporal/ import it. */
const sdk = ['@temporalio/*'];
/** Built-ins that do I/O, in both spellings (`fs` and `node:fs`). */
const io = [
  'fs',
  'child_process',
  'net',
  'http',
  'https',
  'os',
  'readline',
  'dgram',
  'tls',
  'worker_threads',
].flatMap((name) => [name, `node:${name}`]);
/** Leaves everyone may use. */
const leaves = ['src/dirs.ts', 'src/errors.ts', 'src/package-root.ts', 'src/tcp-probe.ts', 'src/timing.ts'];
/** The library: what a suite is made of, with no notion of how a run is driven. */
const library = [
  'src/api',
  'src/api/types.ts',
  'src/suite',
  'src/providers',
  'src/scorers',
  'src/trackers',
  'src/agent',
];
/** Pure and sandbox-safe: the core, the shared schemas, the judge's rules, the agent's core. */
const pure = ['src/core', 'src/api/types.ts', 'src/judge', 'src/agent/core'];
const engine = ['workflows', 'activities'];
const everything = [
  ...leaves,
  ...library,
  ...pure,
  ...engine,
  'src/index.ts',
  'src/report',
  'src/gate',
  'src/cli',
  'src/cli/options.ts',
  'src/commands',
  'src/session',
  'src/output',
  'src/view',
  'src/cache',
  'src/client',
  'temporal',
  'cli.ts',
  'worker.ts',
];
const but = (...not) => everything.filter((room) => !not.includes(room));

/**
 * The rooms and who may import whom (ARCHITECTURE.md draws it): each room names the rooms it may import values from;
 * types may come from any room unless `noTypes`. test/lint/rooms.test.ts holds a probe against every line.
 */
const rooms = {
  'src/core': {
    values: ['src/api/types.ts'],
    packages: { allow: ['zod'] },
    why: 'the pure core runs in the workflow sandbox: no I/O, values only from itself and the shared schemas',
  },
  'src/judge': {
    values: ['src/core', 'src/api/types.ts'],
    packages: { allow: ['zod'] },
    why: "the judge's rules are pure like the core: no I/O, values only from the core and the shared schemas",
  },
  'src/agent/core': {
    values: ['src/core', 'src/api/types.ts'],
    packages: { allow: ['zod'] },
    why: "the agent's core is pure like src/core: trajectories in, verdicts out, no I/O",
  },
  'src/api/types.ts': {
    values: [],
    packages: { allow: ['zod'] },
    why: 'the shared schemas are pure: the workflow sandbox loads them',
  },
  workflows: {
    values: pure,
    packages: { allow: ['@temporalio/workflow'] },
    why: 'workflows are deterministic: no I/O, values only from the pure core',
  },
  'src/report': {
    values: pure,
    packages: { deny: [...sdk, ...io] },
    why: 'reports are pure renderers: data in, text out',
  },
  'src/gate': {
    values: pure,
    packages: { deny: [...sdk, ...io] },
    why: "the pull request's gate is pure: a change in, verdicts and their texts out",
  },
  'src/cli': {
    values: [...leaves, 'src/cli/options.ts'],
    packages: { deny: sdk },
    why: 'the CLI parses; it runs nothing',
  },
  'src/cli/options.ts': {
    values: leaves,
    packages: { deny: sdk },
    why: 'the CLI parses; it runs nothing',
  },
  'src/commands': {
    values: but(...engine),
    packages: { deny: sdk },
    why: 'commands reach Temporal only through src/client',
  },
  'src/session': {
    values: but(...engine, 'src/commands', 'src/cli'),
    packages: { deny: sdk },
    why: 'the session runs through src/client and never calls up',
  },
  'src/view': {
    values: but(...engine, 'src/commands', 'src/cli'),
    packages: { deny: sdk },
    why: 'the view reads runs through the session and src/client; it parses no flags',
  },
  'src/cache': {
    values: [...leaves, ...library, ...pure],
    packages: { deny: sdk },
    why: 'the reply cache is a store: it knows nothing of how a run is driven or shown',
  },
  'src/output': {
    values: [...leaves, ...pure, 'src/report'],
    packages: { deny: sdk },
    why: 'output writes reports; it does not run anything',
  },
  'src/client': {
    values: but('src/commands', 'src/cli', 'src/session', 'src/output', 'src/report'),
    why: 'the client room serves the session; it never calls up',
  },
  activities: {
    values: [...leaves, ...library, ...pure, 'src/report', 'src/cache'],
    why: 'activities translate events for the engine; they never reach the client, the session or the commands',
  },
  temporal: {
    values: leaves,
    why: 'the server provisioning stands alone',
  },
  ...Object.fromEntries(
    library
      .slice(0)
      .map((room) => [
        room,
        room === 'src/api/types.ts'
          ? undefined
          : {
              values: [...leaves, ...library, ...pure],
              packages: { deny: sdk },
              why: 'the library knows nothing of how a run is driven',
            },
      ])
      .filter(([, policy]) => policy),
  ),
  ...Object.fromEntries(
    leaves.map((leaf) => [
      leaf,
      { values: leaves, packages: { deny: sdk }, why: 'a leaf imports only leaves' },
    ]),
  ),
  'src/index.ts': {
    values: [...leaves, ...library, ...pure],
    why: "the package's entry exports the library",
  },
  'cli.ts': { values: but(...engine), why: 'the CLI reaches the engine only through src/client' },
  'worker.ts': { values: but(...engine), why: 'the worker reaches the engine only through src/client' },
};

/** The flags' types stop at the commands, which parse them into a request (src/core/request.ts). */
const privateTypes = {
  'src/cli/options.ts': {
    to: ['src/cli', 'src/commands', 'cli.ts', 'worker.ts'],
    why: 'below the commands nothing knows a flag: take the request (src/core/request.ts) or its part',
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist.tmp-*/**',
      'coverage/**',
      '**/.llm-evals/**',
      'test-artifacts/**',
      'tmp/**',
      '**/log/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { rooms: roomsPlugin, circles: circlesPlugin },
    rules: {
      'rooms/imports': ['error', { root: import.meta.dirname, rooms, privateTypes }],
      'circles/none': ['error', { root: import.meta.dirname }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name='mock']",
          message: 'Pass fakes in; do not vi.mock our modules.',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['bin/*.mjs', 'dev/*.mjs'], languageOptions: { globals: globals.node } },
);

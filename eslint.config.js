// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'url',
];

/** Code that runs in Temporal's workflow sandbox, or is shared with it, must stay deterministic and I/O-free. */
const sandboxSafe = {
  patterns: [
    { group: nodeBuiltins, message: 'Workflows and the pure core import no Node built-ins.' },
    {
      group: [
        'openai',
        'yaml',
        'tinyglobby',
        'tsx',
        'tsx/*',
        '@temporalio/worker',
        '@temporalio/client',
        '@temporalio/activity',
      ],
      message: 'Workflows and the pure core do no I/O.',
    },
    {
      group: [
        '**/activities/*',
        '**/src/suite/*',
        '**/src/providers/*',
        '**/src/commands/*',
        '**/src/temporal/*',
      ],
      allowTypeImports: true,
      message: 'Import only types from outside the sandbox-safe code.',
    },
  ],
};

/** Temporal's SDK packages: only the Temporal room (src/temporal, temporal/, workflows/, activities/) imports them. */
const temporalSdk = ['@temporalio/client', '@temporalio/worker', '@temporalio/common'];
/** The engine's own folders, reached only through src/temporal. */
const engine = ['workflows', 'activities'];
/** Built-ins that do I/O. */
const io = [
  'node:fs',
  'node:fs/promises',
  'node:child_process',
  'node:net',
  'node:http',
  'node:https',
  'node:os',
  'node:readline',
];

/** One no-restricted-imports block per room: packages and sibling rooms it must not import (`types` may be type-imported). */
function rooms(spec) {
  return Object.entries(spec).map(([files, { not, types = [], why }]) => {
    const folder = (name) => [`**/${name}/*`, `**/${name}/**`, `../${name}/*`, `../../${name}/*`];
    const packages = not.filter((n) => n.includes(':') || n.startsWith('@'));
    const folders = not.filter((n) => !packages.includes(n));
    return {
      files: [files],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: packages.map((name) => ({ name, message: why })),
            patterns: [
              ...(folders.length ? [{ group: folders.flatMap(folder), message: why }] : []),
              ...(types.length
                ? [{ group: types.flatMap(folder), allowTypeImports: true, message: why }]
                : []),
            ],
          },
        ],
      },
    };
  });
}

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
  // The rooms and who may import whom (ARCHITECTURE.md draws it). Each block lists what a room must not import.
  ...rooms({
    'src/commands/**/*.ts': {
      not: [...temporalSdk, ...engine],
      why: 'Commands reach Temporal only through src/temporal.',
    },
    'src/cli/**/*.ts': {
      not: [...temporalSdk, ...engine, 'session', 'output'],
      why: 'The CLI parses; it runs nothing.',
    },
    'src/session/**/*.ts': {
      not: [...temporalSdk, ...engine, 'commands'],
      why: 'The session runs through src/temporal.',
    },
    'src/output/**/*.ts': {
      not: [...temporalSdk, ...engine, 'commands', 'session', 'temporal'],
      types: ['cli', 'suite'],
      why: 'Output writes reports; it does not run anything.',
    },
    'src/report/**/*.ts': {
      not: [...temporalSdk, ...engine, ...io, 'commands', 'cli', 'session', 'output', 'temporal', 'suite'],
      why: 'Reports are pure renderers: data in, text out.',
    },
    'src/temporal/**/*.ts': {
      not: ['commands', 'cli', 'session', 'output', 'report'],
      why: 'The Temporal room serves the session; it never calls up.',
    },
    'src/cache/**/*.ts': {
      not: [...temporalSdk, ...engine, 'commands', 'cli', 'session', 'output', 'temporal', 'report'],
      why: 'The reply cache is a store: it knows nothing of how a run is driven or shown.',
    },
    'src/{api,suite,providers,scorers,trackers}/**/*.ts': {
      not: [...temporalSdk, ...engine, 'commands', 'cli', 'session', 'output', 'temporal'],
      why: 'The library knows nothing of how a run is driven.',
    },
  }),
  {
    files: ['workflows/**/*.ts', 'src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', sandboxSafe] },
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

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
    files: ['src/**/*.ts'],
    ignores: ['src/commands/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/commands/*', '**/cli'],
              message: 'Library code never imports commands or the CLI.',
            },
          ],
        },
      ],
    },
  },
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

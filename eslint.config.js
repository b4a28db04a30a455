import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (name) => [`**/${name}/**`, `**/${name}`];
const NODE = { group: ['node:*', 'fs', 'path', 'url', 'os', 'child_process'], message: 'Only src/cli (and tests, benches, scripts) may use Node built-ins.' };
const restrict = (forbiddenLayers, extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...forbiddenLayers.map((l) => ({ group: layer(l), message: `Imports flow one way: core ← store ← features ← app. This layer may not import ${l}/.` })),
        NODE,
        ...extra,
      ],
    },
  ],
});
const REACT = { group: ['react', 'react-dom', 'react-dom/*', 'zustand', '@tanstack/*'], message: 'src/core is pure TypeScript: no React, no DOM.' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench/**', 'src/core/py/nonprintable-ranges.ts'] },
  js.configs.recommended,
  { files: ['scripts/**/*.mjs', 'bin/**/*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      ...restrict(['store', 'features', 'app', 'worker', 'cli'], [REACT]),
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'process'],
    },
  },
  { files: ['src/store/**/*.{ts,tsx}'], rules: restrict(['features', 'app', 'worker', 'cli'], [{ group: ['react', 'react-dom'], message: 'The store is React-free; bind it in features.' }]) },
  { files: ['src/features/**/*.{ts,tsx}'], rules: restrict(['app', 'worker', 'cli']) },
  { files: ['src/worker/**/*.ts'], rules: restrict(['store', 'features', 'app', 'cli']) },
  { files: ['src/app/**/*.{ts,tsx}'], rules: restrict(['cli']) },
);

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts', 'test/**/*.spec.tsx'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'threads',
  },
});

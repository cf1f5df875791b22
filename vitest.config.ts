import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src-shared/**/*.test.ts',
            'src-main/**/*.test.ts',
            'bench/**/*.test.ts',
            'test-support/**/*.test.ts',
            'test-peers/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          setupFiles: ['test-support/vitest-ferry-home.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src-renderer/vitest.setup.ts'],
        },
      },
    ],
  },
});

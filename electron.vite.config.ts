import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: resolve('src-main/electron/main.ts') },
      externalizeDeps: true,
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot be an ES module.
      rollupOptions: {
        input: resolve('src-main/electron/preload.ts'),
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      // Phones open the web client over the LAN: a third of the bytes to fetch and parse.
      minify: true,
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
  },
});

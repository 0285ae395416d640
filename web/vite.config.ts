import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console: built to web/dist (served by the API at `/`), or `npm run dev:web` with hot
 * reload, proxying /v1 to a running API (POSTKIT_API, default http://127.0.0.1:8080).
 */
const api = process.env.POSTKIT_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@postkit/client': fileURLToPath(new URL('../packages/client/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: { '/v1': api, '/docs': api },
  },
});

/**
 * The web app's build (`vite build` → web/dist, with a manifest the bundle-size test reads) and dev
 * server (`npm run dev`: hot reload, with the API's URLs proxied to the service on SERVICE_URL).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serviceUrl = process.env.SERVICE_URL ?? 'http://127.0.0.1:3000';
// The session cookies are set for the service's origin; the proxy rewrites nothing else.
const toService = { target: serviceUrl, changeOrigin: false, xfwd: true };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: process.env.WEB_OUT_DIR ?? fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    port: Number(process.env.WEB_DEV_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': toService,
      '/share': toService,
      '/storage': toService,
      '/auth/callback': toService,
    },
  },
});

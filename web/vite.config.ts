/**
 * The web app's build (`vite build` → web/dist, with a manifest the bundle-size test reads, and a
 * Brotli and a gzip copy beside each text file, which the service sends to browsers that accept them)
 * and dev server (`npm run dev`: hot reload, with the API's URLs proxied to the service on SERVICE_URL).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Compressed once at build time instead of on every request: at the highest levels, except Brotli on
 * files over 256 KB (pdf.js and its worker), where level 11 takes seconds a file (11 s for the 1.2 MB
 * worker) and level 9 a second, for about a tenth more bytes.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(m?js|css|html|svg|json)$/.test(fileName) || !options.dir) continue;
        const path = join(options.dir, fileName);
        const content = readFileSync(path);
        // Below a kilobyte the headers cost about as much as compression saves.
        if (content.length < 1024) continue;
        const quality = content.length > 256 * 1024 ? 9 : 11;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
        );
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

const serviceUrl = process.env.SERVICE_URL ?? 'http://127.0.0.1:3000';
// The session cookies are set for the service's origin; the proxy rewrites nothing else.
const toService = { target: serviceUrl, changeOrigin: false, xfwd: true };

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
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

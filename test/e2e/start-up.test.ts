/**
 * What the built process loads to start: the heavy modules used by one route each (citation formats,
 * PDF text, images) wait for their first use, so they cost nothing at start.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/build-once.js';
import { startServerProcess } from '../support/server-process.js';

/** Each needed by one route, or (the KV REST client) only when configured. */
const LAZY = ['@citation-js/core', '@citation-js/name', 'pdfjs-dist', 'sharp', '@upstash/redis'];

describe('start-up of the built process', () => {
  it('loads no citation, PDF or image library before a request needs one, nor a client of a store not configured', async () => {
    const server = await startServerProcess({
      nodeArgs: ['--v8-pool-size=1', '--import', join(ROOT, 'test/support/record-packages.mjs')],
      readyTimeoutMs: 180_000,
    });
    try {
      expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
      const loaded = [...server.output().matchAll(/^loaded-package (\S+)$/gm)].map(
        (match) => match[1],
      );
      // The hook sees the process's packages (Fastify is one of them).
      expect(loaded).toContain('fastify');
      expect(loaded.filter((name) => LAZY.includes(name!))).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 240_000);
});

/**
 * An S3-compatible server of a test's own: s3rver (from npm, no binary download) as a child process on
 * a free port, its objects in a temp directory, one bucket made at start. The blob store's S3
 * implementation is tested against it through the real AWS SDK, signatures and all.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OwnS3 {
  endpoint: string;
  bucket: string;
  /** s3rver's fixed credentials (it checks the signature made with them). */
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

export async function startOwnS3(bucket = 'research-workspace'): Promise<OwnS3> {
  const directory = mkdtempSync(join(tmpdir(), 'rw-s3-'));
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const child = spawn(
    process.execPath,
    [bin, '-d', directory, '-a', '127.0.0.1', '-p', '0', '--configure-bucket', bucket],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`s3rver did not start in ${START_TIMEOUT_MS} ms: ${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /listening on [^\s]+:(\d+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve(Number(listening[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}: ${output}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

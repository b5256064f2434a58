/** A worker that does nothing until it is stopped (worker-thread.test.ts). */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (message: unknown) => parentPort?.postMessage(message));

/**
 * Preloaded into a measured server (`node --expose-gc --import ./bench/full-gc.mjs …`): one full
 * garbage collection a second after start, from a timer, where no `process.nextTick` is pending — what
 * every long-running process meets (an idle GC, or the embedded database's start-up in the service).
 * After it, Node's tick objects are built on V8's slow path for good (docs/performance.md, Health), so
 * servers measured with this preload are compared in the same state.
 */
if (typeof globalThis.gc !== 'function') throw new Error('full-gc.mjs needs node --expose-gc');
globalThis.setTimeout(() => globalThis.gc(), 1000).unref();

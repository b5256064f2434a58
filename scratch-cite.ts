import { createWorkerPool } from './src/platform/worker-pool.js';
import { FORMAT_WORKER } from './src/workspaces/cite/routes.js';
import { findCitationStyle } from './src/workspaces/cite/styles.js';
const row: any = { id: 'x', workspaceId: 'w', resourceId: null, addedBy: null, workKey: null, title: 'A title', url: null, type: 'article-journal', authors: ['Grace Hopper'], tags: [], notes: '', notesUpdatedBy: null, notesUpdatedAt: null, data: {}, record: { creators: [{ role: 'author', family: 'Hopper', given: 'Grace' }], issued: { year: 2001 }, containerTitle: 'Nature' }, version: 1, createdAt: new Date(), year: 2001, venue: 'Nature', authorSort: 'hopper' };
const pool = createWorkerPool({ threads: 1, queue: 4, heapMb: 256, modules: [FORMAT_WORKER] } as any);
try { console.log(await pool.run(FORMAT_WORKER, { resources: [row], style: await findCitationStyle('ieee'), format: 'text' }, 20000)); } catch (e) { console.log('ERR', e, (e as any).cause); }
await pool.close();

/** What the rest of the service uses from the analytics capability. */
export { recordSearch, type SearchToRecord } from './store.js';

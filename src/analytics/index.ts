/** What the rest of the service uses from the analytics capability. */
export { recordSearch } from './store.js';

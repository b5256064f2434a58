/** What the rest of the service uses from the profiles capability. */
export { createDefaultProfile, findProfile } from './store.js';

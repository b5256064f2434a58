/** What the rest of the service uses from the auth capability: who is asking. */
export { dialectOf, requireUser } from './request-auth.js';

/** What the rest of the service uses from the workspaces capability. */
export { pauseShareLinksOfOwner } from './share-links/store.js';
export { recordAccountDeletion } from './events/record.js';
export { resourceCategories, resourceTotals } from './stats.js';
export { storedResourceText } from './pdfs/summary-source.js';
export { findReadableWorkspace } from './commands.js';
export { readableWorkspaces } from './policy.js';
export { workKeyOf, type WorkIdentifiers } from './resources/work-key.js';
export { exportCitations } from './export.js';
export {
  readableResourceIds,
  readableWorkspaceWorkIds,
  type SavedWorkIds,
} from './graph-sources.js';

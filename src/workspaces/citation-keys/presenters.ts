/** A resource's citation key as replies name it. */
import { recordOfRow } from '../resources/resource-record.js';
import type { ResourceRow } from '../resources/store.js';
import { citationKeyUntilUpgraded } from './keys.js';

export function presentCitationKey(row: ResourceRow): { resourceId: string; citationKey: string } {
  return {
    resourceId: row.id,
    citationKey: row.citationKey ?? citationKeyUntilUpgraded(row, recordOfRow(row)),
  };
}

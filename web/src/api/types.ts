/** Names for the API's schemas that more than one feature speaks (search shows a result; summary and workspaces take one). */
import type { components } from './schema';

export type SearchResult = components['schemas']['SearchResult'];

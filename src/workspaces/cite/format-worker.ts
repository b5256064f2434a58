/**
 * Formatting citations in a worker of platform/worker-pool.ts: citeproc-js's work grows with the
 * resources and the style a user picks, so it stays off the request thread. Each worker builds the
 * common styles' engines when it starts (warmUp), before the first request needs them.
 */
import type { ResourceRow } from '../resources/store.js';
import {
  formatCitations,
  warmCommonEngines,
  type CitationFormat,
  type FormattedCitations,
} from './cite.js';
import type { CitationStyle } from './styles.js';

export interface FormatInput {
  resources: ResourceRow[];
  style: CitationStyle;
  format: CitationFormat;
}

export default function format({
  resources,
  style,
  format,
}: FormatInput): Promise<FormattedCitations> {
  return formatCitations(resources, style, format);
}

export const warmUp = warmCommonEngines;

/** The parts of citation-js (no bundled types) that the citation export and the cite route use. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: object[] | string, options?: { forceType?: string; generateGraph?: boolean });
    /** The CSL items read (tests read exports back through it). */
    readonly data: object[];
    format(format: 'bibtex' | 'ris' | 'data', options?: { format?: 'text' | 'object' }): string;
    /** With @citation-js/plugin-csl: a reference list or in-text citation in a registered CSL style. */
    format(
      format: 'bibliography' | 'citation',
      options: { template: string; lang?: string; format?: 'text' | 'html' },
    ): string;
  }
  export const plugins: {
    config: { get(name: string): unknown };
    /** One parsing step of a registered input type (`@ris/file` → its records as tag → value(s)). */
    input: { data(input: unknown, type: string): unknown };
  };
}
declare module '@citation-js/plugin-csl';
declare module '@citation-js/plugin-ris';
declare module 'citeproc';

/** The parts of citation-js (no bundled types) that the citation export uses. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: object[] | string, options?: { forceType?: string; generateGraph?: boolean });
    /** The CSL items read (tests read exports back through it). */
    readonly data: object[];
    format(format: 'bibtex' | 'ris' | 'data', options?: { format?: 'text' | 'object' }): string;
  }
}
declare module '@citation-js/plugin-ris';
declare module '@citation-js/name' {
  export function parse(name: string): { given?: string; family?: string; 'non-dropping-particle'?: string; 'dropping-particle'?: string; suffix?: string; literal?: string };
}

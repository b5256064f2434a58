/** Types of build-if-stale.mjs (plain JavaScript, run by `npm start` before anything is compiled). */
export declare const BUILDS: ReadonlyArray<{ script: string; output: string; inputs: string[] }>;
export declare function staleBuilds(root: string): string[];

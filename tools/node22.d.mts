/** Types of tools/node22.mjs, for the tests that use it. */
export declare const node22PackageDirectory: string;
export declare const node22Binary: string;
export declare function installNode22Tools(log?: (line: string) => void): void;
export declare function ensureNode22(log?: (line: string) => void): { binary: string; version: string };

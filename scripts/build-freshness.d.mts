/** Types of scripts/build-freshness.mjs, for its test. */
export interface BuildTarget {
  /** The folder the other paths are relative to. */
  root: string;
  /** Files and folders the output is built from. */
  inputs: readonly string[];
  /** The file or folder the build writes. */
  output: string;
  /** Where the decision is kept (beside the output, not in it). */
  stamp: string;
}
export declare function digestOf(root: string, paths: readonly string[]): string;
export declare function checkBuild(target: BuildTarget): { reason: string | undefined; inputs: string };
export declare function recordBuild(target: BuildTarget, inputs: string): void;

/** Types of `workspaces.mjs` (for the tests that read the checkout's packages). */

export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

/** Each workspace package of the checkout at `root`: its folder and its package.json. */
export function workspacePackages(root: string): { dir: string; manifest: Manifest }[];

/** Every file below `dir` (none when it does not exist), depth first. */
export function filesUnder(dir: string): string[];

export function readJson(file: string): Manifest;

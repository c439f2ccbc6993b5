/** Exit codes: documented in `cclab --help` and the README. */
export const EXIT = { ok: 0, runFailed: 1, badInput: 2, interrupted: 130 } as const;

export interface Io {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
}

/**
 * A mistake in the command line or in a file it names (not a bug in cclab): printed as one
 * message without a stack, exit 2.
 */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * An `Io` for `main()` that keeps what the command writes: `c.out`/`c.err` (or the `out` and
 * `err` getters). `isTTY` sets whether stderr looks like a terminal (progress output differs).
 */
export function capture(isTTY?: boolean) {
  const c = { out: "", err: "" };
  return {
    c,
    io: {
      stdout: { write: (s: string) => (c.out += s) },
      stderr: { ...(isTTY === undefined ? {} : { isTTY }), write: (s: string) => (c.err += s) },
    },
    get out() {
      return c.out;
    },
    get err() {
      return c.err;
    },
  };
}

/**
 * Seeded, splittable random numbers.
 *
 * Each stream is an xoshiro128** generator (Blackman & Vigna, 2018), which needs only 32-bit
 * integer arithmetic (`Math.imul`, shifts), so its integer outputs are identical on every
 * JavaScript engine and platform. A stream's 128-bit state comes from a 64-bit key; a child
 * stream's key is derived from its parent's key and its name with SplitMix64's finaliser, not
 * from the parent's state, so `split("switch/3")` returns the same sequence no matter how many
 * numbers other components have drawn or how many streams exist. Adding a component to a
 * scenario therefore does not perturb the randomness of the others.
 *
 * Floating-point draws use `Math.log` (exponential); V8 implements it in software (an fdlibm
 * port), so Node.js gives the same doubles on every platform.
 */

const MASK64 = (1n << 64n) - 1n;
const GOLDEN64 = 0x9e3779b97f4a7c15n;

/** SplitMix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mixer. */
function mix64(z: bigint): bigint {
  let x = z & MASK64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return x ^ (x >> 31n);
}

/** FNV-1a 64 over the UTF-8 bytes of a name. */
function hashName(name: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(name)) {
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & MASK64;
  }
  return h;
}

function childKey(parentKey: bigint, name: string): bigint {
  return mix64(parentKey ^ mix64(hashName(name) + GOLDEN64));
}

function rootKey(seed: number): bigint {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`RNG seed must be a safe integer, got ${seed}`);
  }
  return mix64(BigInt.asUintN(64, BigInt(seed)) + GOLDEN64);
}

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

/** One independent random stream. Create the root with {@link createRng}. */
export class RngStream {
  /** Slash-separated names from the root, e.g. `switch/3/arbiter` (`""` for the root). */
  readonly path: string;
  readonly #key: bigint;
  #s0 = 0;
  #s1 = 0;
  #s2 = 0;
  #s3 = 0;

  /** @internal use {@link createRng} and {@link RngStream.split}. */
  constructor(key: bigint, path: string) {
    this.#key = key;
    this.path = path;
    // Expand the key into 128 bits of state with two SplitMix64 steps (as xoshiro's authors
    // recommend); an all-zero state is the one state xoshiro must avoid.
    const a = mix64(key + GOLDEN64);
    const b = mix64(key + 2n * GOLDEN64);
    this.#s0 = Number(a & 0xffffffffn) | 0;
    this.#s1 = Number(a >> 32n) | 0;
    this.#s2 = Number(b & 0xffffffffn) | 0;
    this.#s3 = Number(b >> 32n) | 0;
    if ((this.#s0 | this.#s1 | this.#s2 | this.#s3) === 0) this.#s0 = 1;
  }

  /**
   * An independent child stream named `name`. The same (seed, path) always gives the same
   * sequence; splitting does not consume numbers from this stream.
   */
  split(name: string): RngStream {
    if (name.length === 0) throw new RangeError("RNG stream name must not be empty");
    return new RngStream(childKey(this.#key, name), this.path ? `${this.path}/${name}` : name);
  }

  /** Next 32-bit unsigned integer in [0, 2^32). xoshiro128** reference step. */
  nextU32(): number {
    const s0 = this.#s0;
    const s1 = this.#s1;
    const s2 = this.#s2 ^ s0;
    const s3 = this.#s3 ^ s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.#s1 = s1 ^ s2;
    this.#s0 = s0 ^ s3;
    this.#s2 = s2 ^ t;
    this.#s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits (two 32-bit draws). */
  uniform(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / TWO_POW_53;
  }

  /** Uniform double in [lo, hi). */
  uniformRange(lo: number, hi: number): number {
    if (!(hi >= lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) {
      throw new RangeError(`uniformRange needs finite lo ≤ hi, got [${lo}, ${hi})`);
    }
    return lo + (hi - lo) * this.uniform();
  }

  /** Exponential draw with the given mean (> 0), by inversion: −mean · ln(1 − U). */
  exponential(mean: number): number {
    if (!(mean > 0) || !Number.isFinite(mean)) {
      throw new RangeError(`exponential mean must be finite and > 0, got ${mean}`);
    }
    return -mean * Math.log(1 - this.uniform());
  }

  /** True with probability `p` ∈ [0, 1]. */
  bernoulli(p: number): boolean {
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`bernoulli probability must be in [0, 1], got ${p}`);
    }
    return this.uniform() < p;
  }

  /**
   * Uniform integer in [lo, hi] (both inclusive, safe integers, hi − lo < 2^53), without
   * modulo bias: draws outside the largest multiple of the range are rejected.
   */
  intRange(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo) {
      throw new RangeError(`intRange needs safe integers lo ≤ hi, got [${lo}, ${hi}]`);
    }
    const range = hi - lo + 1;
    if (range <= TWO_POW_32) {
      const limit = TWO_POW_32 - (TWO_POW_32 % range);
      for (;;) {
        const x = this.nextU32();
        if (x < limit) return lo + (x % range);
      }
    }
    if (range > TWO_POW_53) {
      throw new RangeError(`intRange span must be at most 2^53, got ${range}`);
    }
    const limit = TWO_POW_53 - (TWO_POW_53 % range);
    for (;;) {
      const x = this.uniform() * TWO_POW_53;
      if (x < limit) return lo + (x % range);
    }
  }

  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick needs a non-empty array");
    return items[this.intRange(0, items.length - 1)]!;
  }

  /** Shuffles `items` in place (Fisher–Yates) and returns it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.intRange(0, i);
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }
}

/** The root stream of a run. Give each component its own `split(name)`. */
export function createRng(seed: number): RngStream {
  return new RngStream(rootKey(seed), "");
}

/**
 * Correctly rounded float results that JS does not provide: the quotient of two big
 * integers (CPython's `int / int`) and `pow(x, y)` for doubles (V8's `**` is off by one
 * ulp for several percent of arguments; glibc's `pow`, which CPython calls, is correctly
 * rounded except within about 1e-3 ulp of a rounding boundary).
 */

const buf = new DataView(new ArrayBuffer(8));

/** 2**k as a double, for -1022 <= k <= 1023. */
function pow2(k: number): number {
  buf.setBigUint64(0, BigInt(k + 1023) << 52n);
  return buf.getFloat64(0);
}

/** x * 2**k, exact whenever the result is representable. */
export function ldexp(x: number, k: number): number {
  let y = x;
  let e = k;
  while (e > 1023) {
    y *= pow2(1023);
    e -= 1023;
  }
  while (e < -1022) {
    y *= pow2(-1022);
    e += 1022;
  }
  return y * pow2(e);
}

export function bitLength(n: bigint): number {
  return n === 0n ? 0 : (n < 0n ? -n : n).toString(2).length;
}

/**
 * n / d rounded to the nearest double (ties to even), for n >= 0 and d > 0.
 * Returns Infinity when the rounded value does not fit in a double.
 */
export function ratioToDouble(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  let e = bitLength(n) - bitLength(d);
  if (e >= 0 ? n < d << BigInt(e) : n << BigInt(-e) < d) e -= 1;
  if (e >= 1024) return Infinity;
  const lsb = Math.max(e - 52, -1074);
  const num = lsb >= 0 ? n : n << BigInt(-lsb);
  const den = lsb >= 0 ? d << BigInt(lsb) : d;
  let q = num / den;
  const twice = (num - q * den) * 2n;
  if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  return ldexp(Number(q), lsb);
}

/** A finite nonzero double as odd mantissa m and exponent e: x = ±m * 2**e. */
function decompose(x: number): { m: bigint; e: number } {
  buf.setFloat64(0, Math.abs(x));
  const bits = buf.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let m = bits & ((1n << 52n) - 1n);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e += 1;
  }
  return { m, e };
}

/** The exact value m * 2**e (m > 0) rounded to a double. */
function scaledToDouble(m: bigint, e: number): number {
  return e >= 0 ? ratioToDouble(m << BigInt(e), 1n) : ratioToDouble(m, 1n << BigInt(-e));
}

/** Integer k-th root of n when n is a perfect k-th power, else null. */
function exactRoot(n: bigint, k: number): bigint | null {
  let lo = 1n;
  let hi = 1n << BigInt(Math.ceil(bitLength(n) / k) + 1);
  const K = BigInt(k);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1n;
    const p = mid ** K;
    if (p === n) return mid;
    if (p < n) lo = mid + 1n;
    else hi = mid - 1n;
  }
  return null;
}

const EXACT_BITS_LIMIT = 60_000;

/** x**n exactly rounded, for x = m * 2**e and integer n (bounded size). */
function exactIntPow(m: bigint, e: number, n: bigint): number {
  if (n > 0n) return scaledToDouble(m ** n, e * Number(n));
  const k = -n;
  const den = m ** k;
  const shift = -e * Number(k);
  return shift >= 0 ? ratioToDouble(1n << BigInt(shift), den) : ratioToDouble(1n, den << BigInt(-shift));
}

// Fixed-point helpers: a value v is represented by the bigint round(v * 2**w).
const lnCache = new Map<number, bigint>();

/** atanh(num/den) * 2**w for small |num/den|. */
function atanhFixed(num: bigint, den: bigint, w: number): bigint {
  if (num < 0n) return -atanhFixed(-num, den, w);
  const one = 1n << BigInt(w);
  const x = (num * one) / den;
  const x2 = (x * x) >> BigInt(w);
  let term = x;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * x2) >> BigInt(w);
  }
  return sum;
}

function ln2Fixed(w: number): bigint {
  let v = lnCache.get(w);
  if (v === undefined) {
    v = 2n * atanhFixed(1n, 3n, w);
    lnCache.set(w, v);
  }
  return v;
}

/** ln(m * 2**e) * 2**w for m > 0. */
function lnFixed(m: bigint, e: number, w: number): bigint {
  // m = f * 2**(b-1), f in [1, 2); fold f into [sqrt(2)/2, sqrt(2)].
  const b = bitLength(m);
  let exp2 = e + b - 1;
  const num = m;
  let den = 1n << BigInt(b - 1);
  if (num * num > 2n * den * den) {
    den <<= 1n;
    exp2 += 1;
  }
  const s = 2n * atanhFixed(num - den, num + den, w);
  return s + BigInt(exp2) * ln2Fixed(w);
}

/** exp(t / 2**w) as [mantissa, exponent]: value ≈ mant * 2**(exponent - w). */
function expFixed(t: bigint, w: number): [bigint, number] {
  const ln2 = ln2Fixed(w);
  const shifted = t + (ln2 >> 1n);
  let k = shifted / ln2;
  if (shifted < 0n && k * ln2 !== shifted) k -= 1n;
  let r = t - k * ln2;
  const squarings = 12;
  r >>= BigInt(squarings);
  const one = 1n << BigInt(w);
  let term = one;
  let sum = one;
  for (let i = 1n; term !== 0n && term !== -1n; i++) {
    term = (term * r) / (one * i);
    sum += term;
  }
  for (let i = 0; i < squarings; i++) sum = (sum * sum) >> BigInt(w);
  return [sum, Number(k)];
}

/**
 * pow(x, y) correctly rounded, for finite x > 0, x != 1 and finite nonzero y.
 * Overflow gives Infinity, underflow 0 or a correctly rounded subnormal.
 */
export function powCorrectlyRounded(x: number, y: number): number {
  const estimate = y * Math.log2(x);
  if (estimate > 1100) return Infinity;
  if (estimate < -1200) return 0;
  const { m, e } = decompose(x);
  if (Number.isInteger(y) && Math.abs(y) * bitLength(m) <= EXACT_BITS_LIMIT) return exactIntPow(m, e, BigInt(y));
  // y = p / 2**k with small k: x**y is rational when x is a perfect 2**k-th power.
  for (let k = 1; k <= 6; k++) {
    const scaled = y * 2 ** k;
    if (!Number.isInteger(scaled)) continue;
    const q = 2 ** k;
    const root = e % q === 0 ? exactRoot(m, q) : null;
    if (root !== null && Math.abs(scaled) * bitLength(root) <= EXACT_BITS_LIMIT) return exactIntPow(root, e / q, BigInt(scaled));
    break;
  }
  const { m: ym, e: ye } = decompose(y);
  const ySign = y < 0 ? -1n : 1n;
  const yBits = Math.max(0, bitLength(ym) + ye);
  for (let precision = 96; ; precision *= 2) {
    const w = precision + yBits + 64;
    const lx = lnFixed(m, e, w);
    // t = y * ln(x), still with w fraction bits.
    const t = ye >= 0 ? ySign * ((lx * ym) << BigInt(ye)) : ySign * ((lx * ym) >> BigInt(-ye));
    const [mant, k] = expFixed(t, w);
    const err = (mant >> BigInt(precision)) + 1n;
    const lo = scaledToDouble(mant - err, k - w);
    const hi = scaledToDouble(mant + err, k - w);
    if (lo === hi) return lo;
    if (precision > 4096) return scaledToDouble(mant, k - w);
  }
}

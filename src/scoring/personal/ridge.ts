/**
 * Ridge regression toward a prior, solved in closed form: minimise
 * ||y - Z theta||^2 + lambda ||theta - prior||^2, i.e. (Z'Z + lambda I) theta = Z'y + lambda prior.
 * With few rows the penalty keeps theta at the prior; with many the data wins, at a rate of
 * about n / (n + lambda) per standardised column. Deterministic: no randomness, one Cholesky.
 */
export function ridgeTowardPrior(
  z: readonly Float64Array[],
  y: readonly number[],
  prior: Float64Array,
  lambda: number,
): Float64Array {
  const k = prior.length;
  const a = new Float64Array(k * k);
  const b = new Float64Array(k);
  for (let r = 0; r < z.length; r++) {
    const row = z[r]!;
    const yr = y[r]!;
    for (let i = 0; i < k; i++) {
      const zi = row[i]!;
      if (zi === 0) continue;
      b[i]! += zi * yr;
      const base = i * k;
      for (let j = i; j < k; j++) a[base + j]! += zi * row[j]!;
    }
  }
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < i; j++) a[i * k + j] = a[j * k + i]!;
    a[i * k + i]! += lambda;
    b[i]! += lambda * prior[i]!;
  }
  return choleskySolve(a, b, k);
}

/** Solves A x = b for a symmetric positive definite A (row-major k x k), in place. */
function choleskySolve(a: Float64Array, b: Float64Array, k: number): Float64Array {
  for (let j = 0; j < k; j++) {
    let d = a[j * k + j]!;
    for (let s = 0; s < j; s++) d -= a[j * k + s]! ** 2;
    // lambda > 0 keeps A positive definite; guard rounding anyway.
    const l = Math.sqrt(Math.max(d, 1e-12));
    a[j * k + j] = l;
    for (let i = j + 1; i < k; i++) {
      let v = a[i * k + j]!;
      for (let s = 0; s < j; s++) v -= a[i * k + s]! * a[j * k + s]!;
      a[i * k + j] = v / l;
    }
  }
  const x = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let v = b[i]!;
    for (let s = 0; s < i; s++) v -= a[i * k + s]! * x[s]!;
    x[i] = v / a[i * k + i]!;
  }
  for (let i = k - 1; i >= 0; i--) {
    let v = x[i]!;
    for (let s = i + 1; s < k; s++) v -= a[s * k + i]! * x[s]!;
    x[i] = v / a[i * k + i]!;
  }
  return x;
}

/** Small dense linear algebra for the ridge fit (about 80 features): no dependency needed. */

/** Solves A x = b for a symmetric positive-definite A (Cholesky). A is n*n row-major. */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      if (i === j) {
        if (s <= 0) throw new Error('matrix is not positive definite');
        l[i * n + i] = Math.sqrt(s);
      } else l[i * n + j] = s / l[j * n + j]!;
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * y[k]!;
    y[i] = s / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  return x;
}

/** Ridge regression without intercept (rows already centred): argmin |Xw - y|^2 + lambda |w|^2. */
export function ridge(rows: readonly Float64Array[], y: readonly number[], lambda: number): Float64Array {
  const n = rows[0]!.length;
  const xtx = new Float64Array(n * n);
  const xty = new Float64Array(n);
  for (let r = 0; r < rows.length; r++) {
    const x = rows[r]!;
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      if (xi === 0) continue;
      xty[i] = xty[i]! + xi * y[r]!;
      for (let j = 0; j <= i; j++) xtx[i * n + j] = xtx[i * n + j]! + xi * x[j]!;
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) xtx[j * n + i] = xtx[i * n + j]!;
    xtx[i * n + i] = xtx[i * n + i]! + lambda;
  }
  return solveSpd(xtx, xty, n);
}

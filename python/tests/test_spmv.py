"""magnus.spmv / Context.spmv against SciPy's alpha * (A @ x) + beta * y: every format, both
value types, rectangular, empty and skewed matrices, alpha and beta including 0, and the
errors in the caller's terms."""
import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import rand

FORMATS = ["auto", "csr", "csr-balanced", "coo", "hybrid", "sellp"]


def skewed(seed, dtype):
    """Short rows and a few rows of half the columns (AUTO's balanced side)."""
    A = rand(2000, 3000, 0.002, seed, dtype).tolil()
    for r in (7, 1500):
        A[r, ::2] = 1.0
    return sp.csr_array(A)


def check(y, A, x, y0, alpha, beta, dtype):
    expected = alpha * (A.astype(np.float64) @ x.astype(np.float64))
    if y0 is not None and beta != 0:
        expected = expected + beta * y0.astype(np.float64)
    scale = abs(alpha) * (abs(A).astype(np.float64) @ abs(x).astype(np.float64)) + 1e-300
    if y0 is not None:
        scale = scale + abs(beta * y0.astype(np.float64))
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert y.dtype == dtype and y.shape == (A.shape[0],)
    assert np.all(np.abs(y - expected) <= tol * scale)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_formats(ctx, fmt, dtype):
    if dtype == np.float64 and not ctx.device.fp64:
        pytest.skip("no fp64")
    rng = np.random.default_rng(3)
    for A in (rand(500, 300, 0.02, 1, dtype), rand(300, 500, 0.02, 2, dtype), skewed(4, dtype)):
        x = rng.uniform(-1, 1, A.shape[1]).astype(dtype)
        y0 = rng.uniform(-1, 1, A.shape[0]).astype(dtype)
        for alpha, beta in ((1.0, 0.0), (2.5, 0.5), (0.0, 1.5), (-1.0, 1.0)):
            before = y0.copy()
            y, rep = ctx.spmv(A, x, y=y0, alpha=alpha, beta=beta, format=fmt, return_report=True)
            check(y, A, x, y0, alpha, beta, dtype)
            assert np.array_equal(y0, before), "the caller's y was written"
            if fmt != "auto":
                assert rep["format"] == fmt
            assert rep["floor_bytes"] > 0 and rep["product_ms"] >= 0


def test_auto_follows_the_rows(ctx):
    x = np.ones(3000)
    _, rep = magnus.spmv(skewed(5, np.float64), x, return_report=True, context=ctx)
    assert rep["format"] == "csr-balanced"
    L = sp.csr_array(sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(400, 400)))
    _, rep = magnus.spmv(L, np.ones(400), return_report=True, context=ctx)
    assert rep["format"] == "csr"  # a one-shot product of regular rows: no conversion


def test_empty_and_nan_y(ctx):
    A = sp.csr_array((4, 6), dtype=np.float64)
    y = magnus.spmv(A, np.ones(6), context=ctx)
    assert y.shape == (4,) and not y.any()
    # beta = 0 never reads y: NaN there does not reach the result (BLAS's rule)
    B = rand(50, 40, 0.1, 6)
    y = magnus.spmv(B, np.ones(40), y=np.full(50, np.nan), beta=0.0, context=ctx)
    assert np.all(np.isfinite(y))


def test_matrix_types_and_dtype_choice(ctx):
    A = sp.csr_matrix(rand(60, 50, 0.1, 7, np.float32))
    y = magnus.spmv(A, np.ones(50, np.float32), context=ctx)
    assert y.dtype == np.float32
    if ctx.device.fp64:
        assert magnus.spmv(A, np.ones(50), context=ctx).dtype == np.float64
        assert magnus.spmv(A.tocoo(), np.ones(50), dtype=np.float64, context=ctx).dtype == np.float64


def test_errors(ctx):
    A = rand(20, 30, 0.2, 8)
    with pytest.raises(magnus.DimensionMismatchError, match="x needs 30 values"):
        magnus.spmv(A, np.ones(29), context=ctx)
    with pytest.raises(magnus.DimensionMismatchError, match="20 rows"):
        magnus.spmv(A, np.ones(30), y=np.ones(21), beta=1.0, context=ctx)
    with pytest.raises(magnus.InvalidArgumentError, match="format 'ell'"):
        magnus.spmv(A, np.ones(30), format="ell", context=ctx)
    with pytest.raises(magnus.InvalidArgumentError, match="alpha"):
        magnus.spmv(A, np.ones(30), alpha=float("nan"), context=ctx)
    with pytest.raises(TypeError, match="scipy.sparse"):
        magnus.spmv(np.ones((20, 30)), np.ones(30), context=ctx)
    with pytest.raises(magnus.UnsupportedTypeError, match="complex"):
        magnus.spmv(A.astype(np.complex128), np.ones(30), context=ctx)
    with pytest.raises(magnus.InvalidArgumentError, match="not both"):
        magnus.spmv(A, np.ones(30), device="0", context=ctx)

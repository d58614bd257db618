"""Value types that are not float32 or float64 never change silently: complex values are
refused everywhere (numpy would drop the imaginary parts with a mere ComplexWarning), integer
and bool values are converted only when the caller gives dtype= (an int64 made float64 rounds
beyond 2^53), for spgemm, spmv's A, x and y, plans and their execute, and alpha and beta.
The CuPy path shares the check (test_cupy_fake.py)."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import rand

BIG = 2**53 + 1  # the first integer float64 cannot hold


@pytest.fixture(autouse=True)
def no_warnings():
    """A refusal is an error, not numpy's ComplexWarning followed by a product."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def test_spmv_complex_refused(ctx):
    A = rand(20, 30, 0.2, 1)
    with pytest.raises(magnus.UnsupportedTypeError, match="x holds complex") as e:
        magnus.spmv(A, np.ones(30) + 1j, context=ctx)
    assert e.value.status == "MAGNUS_ERROR_UNSUPPORTED_TYPE" and isinstance(e.value, magnus.Error)
    with pytest.raises(magnus.UnsupportedTypeError, match="imaginary"):
        magnus.spmv(A, np.ones(30) + 1j, dtype=np.float64, context=ctx)  # not even asked
    with pytest.raises(magnus.UnsupportedTypeError, match="y holds complex"):
        magnus.spmv(A, np.ones(30), y=np.ones(20, np.complex64), beta=1.0, context=ctx)
    with pytest.raises(magnus.UnsupportedTypeError, match="A holds complex"):
        magnus.spmv(A.astype(np.complex128), np.ones(30), dtype=np.float64, context=ctx)
    with pytest.raises(magnus.InvalidArgumentError, match="alpha must be a real"):
        magnus.spmv(A, np.ones(30), alpha=np.complex128(2 + 1j), context=ctx)
    with pytest.raises(magnus.InvalidArgumentError, match="beta must be a real"):
        magnus.spmv(A, np.ones(30), beta=1j, context=ctx)


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.bool_, np.float16])
def test_spmv_other_types_only_with_dtype(ctx, fp64, kind):
    A = sp.csr_array(np.eye(3))
    x = np.array([BIG, 1, 0] if kind == np.int64 else [1, 1, 0], dtype=kind)
    with pytest.raises(magnus.UnsupportedTypeError, match=f"x holds {np.dtype(kind)}.*dtype="):
        magnus.spmv(A, x, context=ctx)
    with pytest.raises(magnus.UnsupportedTypeError, match=f"A holds {np.dtype(kind)}"):
        magnus.spmv(A.astype(kind), np.ones(3), context=ctx)
    with pytest.raises(magnus.UnsupportedTypeError, match=f"y holds {np.dtype(kind)}"):
        magnus.spmv(A, np.ones(3), y=x, beta=1.0, context=ctx)
    y = magnus.spmv(A.astype(kind), x, y=x, beta=1.0, dtype=np.float64, context=ctx)
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y, 2 * x.astype(np.float64))


def test_spmv_python_lists(ctx, fp64):
    A = sp.csr_array(np.eye(3))
    np.testing.assert_array_equal(magnus.spmv(A, [1.0, 2.0, 3.0], context=ctx), [1, 2, 3])
    with pytest.raises(magnus.UnsupportedTypeError, match="x holds int64"):
        magnus.spmv(A, [1, 2, 3], context=ctx)
    with pytest.raises(magnus.UnsupportedTypeError, match="x holds <U"):
        magnus.spmv(A, ["1", "2", "3"], dtype=np.float64, context=ctx)


def test_spgemm_complex_refused(ctx):
    A = rand(10, 10, 0.3, 2, np.float32)
    for dtype in (None, np.float32, np.float64):
        with pytest.raises(magnus.UnsupportedTypeError, match="B holds complex"):
            ctx.spgemm(A, A.astype(np.complex64), dtype=dtype)
    with pytest.raises(magnus.InvalidArgumentError, match="alpha must be a real"):
        ctx.spgemm(A, A, alpha=np.complex64(1 + 1j))
    with pytest.raises(magnus.InvalidArgumentError, match="alpha = nan"):
        magnus.spgemm(A, A, alpha=np.float64("nan"), context=ctx)


@pytest.mark.parametrize("kind", [np.int64, np.uint8, np.bool_])
def test_spgemm_integers_only_with_dtype(ctx, fp64, kind):
    A = sp.csr_array(np.array([[BIG if kind == np.int64 else 1, 0], [0, 1]], dtype=kind))
    F = sp.csr_array(np.eye(2))
    for X, Y, name in ((A, F, "A"), (F, A, "B"), (A, A, "A")):
        with pytest.raises(magnus.UnsupportedTypeError, match=f"{name} holds {np.dtype(kind)}"):
            ctx.spgemm(X, Y)
        with pytest.raises(magnus.UnsupportedTypeError, match=f"{name} holds {np.dtype(kind)}"):
            magnus.spgemm(X, Y, context=ctx)
    C = ctx.spgemm(A, F, dtype=np.float64)  # asked for: converted
    assert C.dtype == np.float64
    np.testing.assert_array_equal(C.toarray(), A.toarray().astype(np.float64))


def test_plans(ctx, fp64):
    I64 = sp.csr_array(np.array([[BIG, 0], [1, 1]], dtype=np.int64))
    F = sp.csr_array(np.array([[1.0, 0], [1, 1]]))
    with pytest.raises(magnus.UnsupportedTypeError, match="A holds int64"):
        ctx.plan(I64, F)
    with ctx.plan(F, F) as plan:  # made from floats: execute takes floats only
        with pytest.raises(magnus.UnsupportedTypeError, match="B holds int64"):
            plan.execute(F, I64)
        with pytest.raises(magnus.UnsupportedTypeError, match="A holds complex"):
            plan.execute(F.astype(np.complex128), F)
        assert plan.execute(F.astype(np.float32), F).dtype == np.float64  # float to float
    with ctx.plan(I64, F, dtype=np.float64) as plan:  # dtype given: integers converted
        C = plan.execute(I64, F)
        np.testing.assert_array_equal(C.toarray(),
                                      I64.toarray().astype(np.float64) @ F.toarray())
        with pytest.raises(magnus.UnsupportedTypeError, match="A holds complex"):
            plan.execute(F.astype(np.complex128), F)

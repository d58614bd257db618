"""The CuPy path's pure-Python parts, without CuPy or a GPU (they run on PoCL): recognising
cupyx matrices by module, refusing mixed host/device operands, plans and contexts that are
not CUDA, and a closed context that waits for its live device results. test_cupy.py runs
the path itself on a CUDA GPU with CuPy."""
import importlib.util

import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from magnus import _cupy

HAVE_CUPY = importlib.util.find_spec("cupy") is not None


def fake_cupy_csr():
    return type("csr_matrix", (), {"__module__": "cupyx.scipy.sparse._csr"})()


def test_detection_by_module():
    A = sp.random(5, 4, density=0.5, format="csr")
    assert not _cupy.is_cupy_sparse(A)
    assert not _cupy.is_cupy_sparse(sp.csr_array(A))
    assert not _cupy.is_cupy_sparse(np.eye(3))
    assert not _cupy.is_cupy_sparse(None)
    assert _cupy.is_cupy_sparse(fake_cupy_csr())
    # a CuPy dense array is not a sparse matrix
    dense = type("ndarray", (), {"__module__": "cupy._core.core"})()
    assert not _cupy.is_cupy_sparse(dense)


def test_no_cupy_import_for_scipy(ctx):
    import sys
    before = "cupy" in sys.modules
    A = sp.csr_array(np.eye(3, dtype=np.float32))
    magnus.spgemm(A, A, context=ctx)
    assert ("cupy" in sys.modules) == before


@pytest.mark.parametrize("order", ["AB", "BA"])
def test_mixed_operands_refused(ctx, order):
    A = sp.csr_array(np.eye(3, dtype=np.float32))
    X, Y = (fake_cupy_csr(), A) if order == "AB" else (A, fake_cupy_csr())
    with pytest.raises(TypeError, match="CuPy .device. matrix but . is not"):
        ctx.spgemm(X, Y)
    with pytest.raises(TypeError, match="CuPy"):
        magnus.spgemm(X, Y, context=ctx)


@pytest.mark.skipif(HAVE_CUPY, reason="CuPy is installed")
def test_cupy_matrices_without_cupy(ctx):
    with pytest.raises(TypeError, match="CuPy cannot be imported"):
        ctx.spgemm(fake_cupy_csr(), fake_cupy_csr())


def test_plans_refuse_cupy(ctx):
    with pytest.raises(TypeError, match="spgemm"):
        ctx.plan(fake_cupy_csr(), fake_cupy_csr())
    dense = type("ndarray", (), {"__module__": "cupy._core.core"})()
    with pytest.raises(TypeError, match="not a sparse matrix"):
        ctx.spgemm(dense, dense)


def test_context_must_be_cuda(ctx):
    if ctx.device.backend == "cuda":
        pytest.skip("the test context is CUDA")
    with pytest.raises(magnus.InvalidArgumentError, match="CUDA context"):
        _cupy.check_context(ctx, 0)


def test_close_waits_for_device_results(ctx):
    c = magnus.Context(ctx.device)

    class Result:  # what _DeviceResult registers
        pass

    r = Result()
    c._borrowers.add(r)
    c.close()
    assert c._h, "a context with live results is not freed yet"
    with pytest.raises(magnus.InvalidArgumentError, match="closed"):
        c.spgemm(sp.csr_array(np.eye(2)), sp.csr_array(np.eye(2)))
    c._borrowers.discard(r)
    c._release_deferred()
    assert not c._h
    c.close()  # and again: a no-op


def test_result_from_parts_where_cupyx_has_it():
    """The result matrix: cupyx's constructor for pre-validated parts when it exists and takes
    the arrays (same index dtypes), flagged canonical; else the public constructor."""
    made = []

    class Public:
        def __init__(self, arg, shape=None, copy=True):
            made.append(("public", arg, shape, copy))
            self.has_canonical_format = None

    class WithParts(Public):
        @classmethod
        def _from_parts(cls, data, indices, indptr, shape, has_canonical_format=None):
            made.append(("parts", has_canonical_format))
            return "from parts"

    class OtherSignature(Public):
        @classmethod
        def _from_parts(cls, data, indices, indptr):
            raise AssertionError("not reached: the call has a shape")

    i32, i64 = np.zeros(3, np.int32), np.zeros(3, np.int64)
    data = np.zeros(2, np.float32)
    csp = type("csp", (), {"csr_matrix": WithParts})
    assert _cupy._csr_from_parts(csp, data, i32[:2], i32, (2, 4)) == "from parts"
    assert made[-1] == ("parts", True)
    C = _cupy._csr_from_parts(csp, data, i32[:2], i64, (2, 4))  # int64 row pointers
    assert made[-1][0] == "public" and made[-1][2] == (2, 4) and made[-1][3] is False
    assert C.has_canonical_format is True
    for cls in (Public, OtherSignature):
        C = _cupy._csr_from_parts(type("csp", (), {"csr_matrix": cls}), data, i32[:2], i32,
                                  (2, 4))
        assert made[-1][0] == "public" and C.has_canonical_format is True

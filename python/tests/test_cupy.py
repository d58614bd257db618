"""magnus.spgemm on CuPy matrices (cupyx.scipy.sparse) on a CUDA GPU, against cupyx's own
A @ B: random square and rectangular, empty, both dtypes, alpha, a shared operand, inputs
out of canonical form; the result is a csr_matrix over magnus's device memory that outlives
its inputs and its context; mixed host/device operands, complex values and a context on
another device are refused. Skipped, with the reason, without CuPy, a CUDA GPU, or a magnus
CUDA device. (test_cupy_logic.py covers the parts that need neither.)"""
import gc

import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import EMPTY_SHAPES, expect_empty_product, expect_product, rand

cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
csp = pytest.importorskip("cupyx.scipy.sparse", reason="cupyx.scipy.sparse is not available")

DTYPES = [np.float32, np.float64]


def _gpu_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


if _gpu_count() == 0:
    pytest.skip("no CUDA GPU for CuPy", allow_module_level=True)


@pytest.fixture(scope="module")
def cuda_ctx():
    try:
        devs = [d for d in magnus.devices() if d.backend == "cuda"]
    except magnus.LibraryNotFoundError as e:
        pytest.skip(f"libmagnus not found: {e}")
    if not devs:
        pytest.skip("no magnus CUDA device (magnus probe says why)")
    dev_id = cupy.cuda.Device().id
    c = magnus.Context(f"cuda:{dev_id}")
    yield c
    c.close()


def on_device(X):
    return csp.csr_matrix(sp.csr_matrix(X))


def check(C, expected, dtype):
    """C: a cupyx csr_matrix on the device; expected: cupyx or SciPy."""
    assert isinstance(C, csp.csr_matrix)
    assert isinstance(C.data, cupy.ndarray) and isinstance(C.indices, cupy.ndarray)
    ref = expected.get() if hasattr(expected, "get") else expected
    expect_product(C.get(), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", [None, "gmagnus", "hash"])
@pytest.mark.parametrize("shape", [(300, 300, 300), (200, 150, 120), (1, 300, 1), (64, 1, 80)])
def test_random(cuda_ctx, dtype, algorithm, shape):
    m, k, n = shape
    A = on_device(rand(m, k, 0.05, 1, dtype, array=False))
    B = on_device(rand(k, n, 0.05, 2, dtype, array=False))
    C = magnus.spgemm(A, B, context=cuda_ctx, algorithm=algorithm)
    assert C.dtype == dtype and C.shape == (m, n)
    check(C, A @ B, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_default_context_is_the_arrays_device(dtype):
    A = on_device(rand(120, 120, 0.05, 3, dtype, array=False))
    C = magnus.spgemm(A, A)  # no context: cuda:<A's device>
    check(C, A @ A, dtype)


def test_result_is_magnus_memory(cuda_ctx):
    A = on_device(rand(100, 100, 0.05, 4, np.float32, array=False))
    C = cuda_ctx.spgemm(A, A)
    # indices and values are views of magnus's buffers, not CuPy allocations
    assert isinstance(C.data.data.mem, cupy.cuda.memory.UnownedMemory)
    assert isinstance(C.indices.data.mem, cupy.cuda.memory.UnownedMemory)
    assert C.indptr.dtype == np.int32 and C.indices.dtype == np.int32
    assert C.has_canonical_format


@pytest.mark.parametrize("shape", EMPTY_SHAPES)
def test_empty_shapes(cuda_ctx, shape):
    C = expect_empty_product(cuda_ctx.spgemm, csp.csr_matrix, shape)
    assert int(C.indptr.sum()) == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_no_entries(cuda_ctx, dtype):
    A = csp.csr_matrix((40, 30), dtype=dtype)
    B = on_device(rand(30, 20, 0.2, 5, dtype, array=False))
    C = cuda_ctx.spgemm(A, B)
    assert C.shape == (40, 20) and C.nnz == 0 and C.dtype == dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_alpha_shared_operand_and_report(cuda_ctx, dtype):
    A = on_device(rand(150, 150, 0.03, 6, dtype, array=False))
    C, report = cuda_ctx.spgemm(A, A, alpha=-2.0, return_report=True)
    check(C, (A @ A) * -2.0, dtype)
    assert report["nnz_c"] == C.nnz


def test_dtype_conversion_and_refusals(cuda_ctx):
    A = on_device(rand(50, 50, 0.1, 7, np.float32, array=False))
    C = cuda_ctx.spgemm(A, A, dtype=np.float64)
    assert C.dtype == np.float64
    check(C, A.astype(np.float64) @ A.astype(np.float64), np.float64)
    Z = A.astype(np.complex64)
    with pytest.raises(magnus.UnsupportedTypeError):
        cuda_ctx.spgemm(Z, Z)
    with pytest.raises(magnus.UnsupportedTypeError):
        cuda_ctx.spgemm(A, A, dtype=np.int32)
    with pytest.raises(magnus.DimensionMismatchError):
        cuda_ctx.spgemm(A, on_device(rand(40, 10, 0.1, 8, np.float32, array=False)))


def test_mixed_host_device_refused(cuda_ctx):
    H = rand(20, 20, 0.1, 9, np.float32, array=False)
    D = on_device(H)
    with pytest.raises(TypeError, match="CuPy"):
        cuda_ctx.spgemm(D, H)
    with pytest.raises(TypeError, match="CuPy"):
        magnus.spgemm(H, D)


def test_context_on_another_device_refused():
    A = on_device(rand(20, 20, 0.1, 10, np.float32, array=False))
    here = cupy.cuda.Device().id
    others = [d for d in magnus.devices() if not (d.backend == "cuda" and d.index == here)]
    if not others:
        pytest.skip("no magnus device other than the arrays' CUDA device")
    with pytest.raises(magnus.InvalidArgumentError, match="CUDA"):
        magnus.spgemm(A, A, device=others[0])


def test_non_canonical_input_left_alone(cuda_ctx):
    # columns out of order and a duplicate in row 0: summed on a copy, the input unchanged
    data = cupy.array([1.0, 2.0, 3.0, 4.0], dtype=np.float64)
    indices = cupy.array([2, 0, 2, 1], dtype=np.int32)
    indptr = cupy.array([0, 3, 4, 4], dtype=np.int32)
    A = csp.csr_matrix((data, indices, indptr), shape=(3, 3))
    before = A.indices.get().copy()
    C = cuda_ctx.spgemm(A, A)
    ref = sp.csr_matrix((data.get(), indices.get(), indptr.get()), shape=(3, 3))
    ref.sum_duplicates()
    expect_product(C.get(), ref @ ref, np.float64)
    assert (A.indices.get() == before).all()


def test_result_outlives_inputs_and_context():
    dev_id = cupy.cuda.Device().id
    ctx = magnus.Context(f"cuda:{dev_id}")
    A = on_device(rand(200, 200, 0.03, 11, np.float32, array=False))
    B = on_device(rand(200, 100, 0.03, 12, np.float32, array=False))
    expected = (A @ B).get()
    C = ctx.spgemm(A, B)
    del A, B
    gc.collect()
    ctx.close()  # deferred: C's arrays are the context's memory
    with pytest.raises(magnus.InvalidArgumentError, match="closed"):
        ctx.spgemm(C, C.T.tocsr())
    D = C * 2.0  # a CuPy kernel over magnus's memory
    expect_product(C.get(), expected, np.float32)
    expect_product(D.get(), expected * 2.0, np.float32)
    del C, D
    gc.collect()
    assert not ctx._h  # the last result freed the context


def test_many_products_freed_and_reused(cuda_ctx):
    A = on_device(rand(300, 300, 0.02, 13, np.float64, array=False))
    expected = (A @ A).get()
    keep = []
    for i in range(12):
        C = cuda_ctx.spgemm(A, A)
        s = C.data.sum()  # queued on CuPy's stream: freeing C must wait for it
        if i % 3 == 0:
            keep.append(C)
        del C
        gc.collect()
        assert float(s) > 0
    for C in keep:
        expect_product(C.get(), expected, np.float64)

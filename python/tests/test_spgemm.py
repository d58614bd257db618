"""magnus.spgemm against SciPy's A @ B: random, rectangular, empty and shared operands,
float32 and float64, alpha, result types, input forms and the report."""
import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import EMPTY_SHAPES, expect_empty_product, expect_product, rand

DTYPES = [np.float32, np.float64]


def _need(ctx, dtype):
    if dtype == np.float64 and not ctx.device.fp64:
        pytest.skip("no fp64")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", [None, "gmagnus", "hash"])
@pytest.mark.parametrize("shape", [(200, 150, 120), (1, 300, 1), (64, 1, 80), (150, 150, 150)])
def test_random_rectangular(ctx, dtype, algorithm, shape):
    _need(ctx, dtype)
    m, k, n = shape
    A, B = rand(m, k, 0.05, 1, dtype), rand(k, n, 0.05, 2, dtype)
    C = magnus.spgemm(A, B, context=ctx, algorithm=algorithm)
    assert isinstance(C, sp.csr_array)
    expect_product(C, A @ B, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_shared_operand(ctx, dtype):
    _need(ctx, dtype)
    A = rand(300, 300, 0.02, 3, dtype)
    expect_product(ctx.spgemm(A, A), A @ A, dtype)


@pytest.mark.parametrize("shape", EMPTY_SHAPES)
def test_empty_shapes(ctx, shape):
    expect_empty_product(ctx.spgemm, sp.csr_array, shape)


def test_no_entries(ctx):
    A = sp.csr_array((40, 30), dtype=np.float32)
    B = rand(30, 20, 0.2, 4, np.float32)
    C = ctx.spgemm(A, B)
    assert C.shape == (40, 20) and C.nnz == 0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("alpha", [0.0, -1.0, 2.5])
@pytest.mark.parametrize("algorithm", ["gmagnus", "hash"])
def test_alpha(ctx, dtype, alpha, algorithm):
    _need(ctx, dtype)
    A, B = rand(120, 90, 0.05, 5, dtype), rand(90, 60, 0.05, 6, dtype)
    C = ctx.spgemm(A, B, alpha=alpha, algorithm=algorithm)
    ref = A @ B
    assert C.nnz == ref.nnz  # alpha = 0 keeps the structure, with zeros
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(C.toarray(), alpha * ref.toarray(), rtol=rtol, atol=rtol * 10)
    if alpha == 0.0:
        assert not C.data.any()


def test_result_types_and_dtypes(ctx, fp64):
    A32 = rand(50, 40, 0.1, 7, np.float32, array=False)
    B32 = rand(40, 30, 0.1, 8, np.float32, array=False)
    C = ctx.spgemm(A32, B32)
    assert isinstance(C, sp.csr_matrix) and not isinstance(C, sp.csr_array)
    assert C.dtype == np.float32
    # a csr_array on either side gives a csr_array; float64 on either side gives float64
    C = ctx.spgemm(sp.csr_array(A32), B32.astype(np.float64))
    assert isinstance(C, sp.csr_array) and C.dtype == np.float64
    # integer values are converted only when dtype asks for it (test_dtypes.py)
    Ai = sp.csr_matrix(np.array([[1, 2], [0, 3]], dtype=np.int64))
    with pytest.raises(magnus.UnsupportedTypeError, match="dtype="):
        ctx.spgemm(Ai, Ai)
    C = ctx.spgemm(Ai, Ai, dtype=np.float64)
    assert C.dtype == np.float64
    np.testing.assert_array_equal(C.toarray(), [[1, 8], [0, 9]])
    C = ctx.spgemm(Ai, Ai, dtype=np.float32)
    assert C.dtype == np.float32
    assert C.has_sorted_indices


def test_input_forms(ctx, fp64):
    """COO, CSC, unsorted and duplicate entries are canonicalised first."""
    rows = np.array([0, 0, 2, 1, 0, 2])
    cols = np.array([2, 0, 1, 1, 2, 0])  # (0,2) twice: summed
    vals = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    coo = sp.coo_matrix((vals, (rows, cols)), shape=(3, 3))
    dense = coo.toarray()
    for A in (coo, coo.tocsc(), sp.coo_array(coo), sp.dok_matrix(coo)):
        C = ctx.spgemm(A, A)
        np.testing.assert_allclose(C.toarray(), dense @ dense)
    # a CSR with unsorted indices
    U = sp.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2, 2])),
                      shape=(2, 2))
    assert not U.has_sorted_indices
    np.testing.assert_allclose(ctx.spgemm(U, U).toarray(), U.toarray() @ U.toarray())


def test_report(ctx):
    A, B = rand(100, 80, 0.05, 9, np.float32), rand(80, 70, 0.05, 10, np.float32)
    C, rep = magnus.spgemm(A, B, context=ctx, algorithm="hash", return_report=True)
    assert rep["algorithm"] == "hash"
    assert rep["nnz_c"] == C.nnz
    assert rep["rows_total"] == A.shape[0]
    # products: for each A[i,k], the entries of row k of B
    products = int(np.diff(B.indptr)[A.indices].sum())
    assert rep["products_total"] == products
    assert rep["peak_device_bytes"] > 0 and rep["time_total_ms"] >= 0
    # what the Python layer spent around the library's call, on its own clock
    assert rep["time_python_in_ms"] > 0 and rep["time_python_out_ms"] > 0
    _, rep = ctx.spgemm(A, B, algorithm="gmagnus", return_report=True)
    assert rep["algorithm"] == "gmagnus" and rep["tau"] > 0
    assert rep["heavy_row_products"] >= rep["tau"] and rep["heavy_row_rule"]
    # the default: AUTO picks one and says why; rows of at most ~40 products are never long
    _, rep = ctx.spgemm(A, B, return_report=True)
    assert rep["algorithm_requested"] == "auto" and rep["algorithm"] == "hash"
    assert rep["auto_long_share"] == 0 and rep["algorithm_reason"].startswith("auto")


def test_batches(ctx):
    """A batch budget of a quarter of the products' bytes: gMAGNUS in four row blocks, the
    same C as SciPy's; the default budget runs it whole."""
    A, B = rand(300, 200, 0.05, 11, np.float32), rand(200, 250, 0.05, 12, np.float32)
    products = int(np.diff(B.indptr)[A.indices].sum())
    budget = (products + 3) // 4 * 8  # (4 + 4 bytes) per product in float32
    with magnus.Context(ctx.device, chat_batch_bytes=budget) as small:
        C, rep = small.spgemm(A, B, algorithm="gmagnus", return_report=True)
    expect_product(C, A @ B, np.float32)
    assert rep["batches"] == 4 and rep["time_batch_ms"] >= 0
    _, rep = ctx.spgemm(A, B, algorithm="magnus", return_report=True)  # the former name
    assert rep["batches"] == 1 and rep["algorithm"] == "gmagnus"
    _, rep = ctx.spgemm(A, B, algorithm="hash", return_report=True)
    assert rep["batches"] == 0


def test_devices_and_default_context(ctx):
    devs = magnus.devices()
    assert devs and all(isinstance(d, magnus.Device) for d in devs)
    assert ctx.device.name
    # a device spec string, as MAGNUS_DEVICE takes it, and a Device
    with magnus.Context(device=devs[0].spec) as c2:
        assert c2.device.name == devs[0].name
    with magnus.Context(device=devs[0]) as c3:
        A = rand(20, 20, 0.2, 11, np.float32)
        expect_product(c3.spgemm(A, A), A @ A, np.float32)
    A = rand(20, 20, 0.2, 12, np.float32)
    expect_product(magnus.spgemm(A, A, device=devs[0].spec), A @ A, np.float32)

"""Context.plan / Plan.execute: symbolic once, numeric for new values; other structures
refused."""
import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import expect_product, rand


def revalue(M, seed):
    rng = np.random.default_rng(seed)
    M = M.copy()
    M.data = rng.uniform(-2, 2, M.nnz).astype(M.dtype)
    return M


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shared", [False, True])
def test_execute_new_values(ctx, dtype, shared):
    if dtype == np.float64 and not ctx.device.fp64:
        pytest.skip("no fp64")
    A = rand(150, 120, 0.04, 1, dtype)
    B = A if shared else rand(120, 90, 0.05, 2, dtype)
    if shared:
        A = B = rand(150, 150, 0.03, 1, dtype)
    with ctx.plan(A, B, alpha=1.5) as plan:
        assert plan.shape == (A.shape[0], B.shape[1])
        # a plan of product positions (the default): row pointers, C's columns, one offset
        # per entry of A and one position per product
        A32, B32 = sp.csr_matrix(A), sp.csr_matrix(B)
        products = int(np.diff(B32.indptr)[A32.indices].sum())
        assert plan.info["positions"] == products
        assert plan.info["device_bytes"] == ((A.shape[0] + 1) * 8 + plan.nnz * 4
                                             + (A32.nnz + 1) * 8 + products * 4)
        assert plan.info["algorithm"] == plan.info["symbolic"]["algorithm"]
        assert plan.nnz == (A @ B).nnz
        for seed in (3, 4):
            A2 = revalue(A, seed)
            B2 = A2 if shared else revalue(B, seed + 10)
            C, rep = plan.execute(A2, B2, return_report=True)
            assert rep["nnz_c"] == plan.nnz
            # the default options ask for AUTO; the report names the algorithm that made the
            # structure and, in the reason, the plan's kind
            assert rep["algorithm"] == plan.info["algorithm"]
            assert rep["algorithm_requested"] == "auto"
            assert "positions" in rep["algorithm_reason"]
            fresh = ctx.spgemm(A2, B2, alpha=1.5)
            assert C.nnz == fresh.nnz
            np.testing.assert_array_equal(C.indptr, fresh.indptr)
            np.testing.assert_array_equal(C.indices, fresh.indices)
            rtol = 1e-4 if dtype == np.float32 else 1e-10
            np.testing.assert_allclose(C.data, fresh.data, rtol=rtol, atol=rtol * 10)
            ref = (1.5 * (A2 @ B2)).toarray()
            np.testing.assert_allclose(C.toarray(), ref, rtol=rtol * 10, atol=rtol * 10)


def test_structure_mismatch_refused(ctx):
    A, B = rand(60, 50, 0.08, 5, np.float32), rand(50, 40, 0.08, 6, np.float32)
    plan = ctx.plan(A, B)
    # the same nnz, one column index moved: only the fingerprint tells
    A2 = A.copy()
    row = int(np.argmax(np.diff(A2.indptr) > 0))
    last = A2.indptr[row + 1] - 1
    free = sorted(set(range(A2.shape[1])) - set(A2.indices[A2.indptr[row]:A2.indptr[row + 1]]))
    A2.indices[last] = free[-1]
    A2.sort_indices()
    assert A2.nnz == A.nnz
    with pytest.raises(magnus.InvalidArgumentError) as e:
        plan.execute(A2, B)
    assert e.value.status == "MAGNUS_ERROR_INVALID_ARGUMENT"
    assert "structure" in e.value.message
    with pytest.raises(magnus.DimensionMismatchError):
        plan.execute(B, B.T)  # other shapes
    with pytest.raises(magnus.InvalidArgumentError):
        plan.execute(A, rand(50, 40, 0.02, 7, np.float32))  # another nnz
    # the plan still works, and with the same matrices gives the plain product
    expect_product(plan.execute(A, B), A @ B, np.float32)
    plan.close()
    plan.close()
    with pytest.raises(magnus.InvalidArgumentError):
        plan.execute(A, B)


def test_plan_empty(ctx):
    A = sp.csr_array((0, 10), dtype=np.float32)
    B = rand(10, 10, 0.3, 8, np.float32)
    with ctx.plan(A, B) as plan:
        C = plan.execute(A, B)
        assert C.shape == (0, 10) and C.nnz == 0

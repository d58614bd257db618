"""The CuPy path's flow on an OpenCL device, with fake_cupy standing in for CuPy (its device
arrays are cl_mem buffers of the magnus context, where CuPy's are device pointers): the
operands are wrapped in place, C's column indices and values are magnus's own buffers
(magnus_device_csr_native) viewed through UnownedMemory, the owner synchronises before it
frees C, a closed context waits for its live results, and the fake's own buffers are all
released. The context check is bypassed (it is CUDA-only); test_cupy.py runs the real thing."""
import gc
import sys

import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from magnus import _cupy, _lib as L
from conftest import expect_product, rand


@pytest.fixture
def fake(monkeypatch):
    c = magnus.Context()
    if c.device.backend != "opencl":
        c.close()
        pytest.skip("the fake CuPy's arrays are OpenCL buffers; the device is not OpenCL")
    nh = L.NativeHandles()
    L.check(L.lib().magnus_context_native(nh, c._handle()))
    mods = fake_mods = __import__("fake_cupy").make(nh.context, nh.device)
    for name, mod in zip(("cupy", "cupyx", "cupyx.scipy", "cupyx.scipy.sparse"), mods):
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setattr(_cupy, "check_context", lambda ctx, device_id: None)
    yield c, fake_mods[0], fake_mods[3]
    c.close()


def upload(csp, X):
    return csp.csr_matrix(sp.csr_matrix(X))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(120, 90, 60), (1, 50, 1), (30, 30, 30)])
def test_product_over_borrowed_buffers(fake, dtype, shape):
    ctx, cupy, csp = fake
    if dtype == np.float64 and not ctx.device.fp64:
        pytest.skip("no fp64")
    m, k, n = shape
    hA, hB = rand(m, k, 0.1, 1, dtype, array=False), rand(k, n, 0.1, 2, dtype, array=False)
    A, B = upload(csp, hA), upload(csp, hB)
    C, report = ctx.spgemm(A, B, return_report=True)
    assert isinstance(C, csp.csr_matrix) and C.dtype == dtype and C.shape == (m, n)
    expect_product(C.get(), hA @ hB, dtype)
    assert report["nnz_c"] == C.nnz
    assert report["time_python_in_ms"] > 0 and report["time_python_out_ms"] > 0
    assert "stream" in cupy._syncs, "CuPy's stream is synchronised before the wrap"
    if C.nnz:
        # indices and values are views of magnus's buffers; the row pointers a device copy
        assert isinstance(C.data.data.mem, cupy.cuda.UnownedMemory)
        assert isinstance(C.indices.data.mem, cupy.cuda.UnownedMemory)
        assert C.data.data.mem._owner is C.indices.data.mem._owner
        owner = C.data.data.mem._owner
        nb = L.DeviceCSRBuffers()
        L.check(L.lib().magnus_device_csr_native(nb, owner._h))
        assert nb.values == C.data.data.ptr and nb.col_idx == C.indices.data.ptr
        assert C.indptr.dtype == np.int32 and C.indices.dtype == np.int32
        del owner
    del C, A, B
    gc.collect()
    assert len(ctx._borrowers) == 0


def test_shared_operand_alpha_and_empty(fake):
    ctx, cupy, csp = fake
    hA = rand(80, 80, 0.05, 3, np.float32, array=False)
    A = upload(csp, hA)
    C = magnus.spgemm(A, A, context=ctx, alpha=2.0)
    expect_product(C.get(), (hA @ hA) * 2.0, np.float32)
    Z = upload(csp, sp.csr_matrix((7, 5), dtype=np.float32))
    E = ctx.spgemm(Z, upload(csp, sp.csr_matrix((5, 3), dtype=np.float32)))
    assert E.shape == (7, 3) and E.nnz == 0
    with pytest.raises(magnus.UnsupportedTypeError):
        ctx.spgemm(A, A, dtype=np.int64)


def test_value_types_as_for_scipy(fake):
    """The device path refuses what the host path refuses (test_dtypes.py): integers without
    dtype=, complex always; with dtype= integers are converted on the device."""
    ctx, cupy, csp = fake
    I = upload(csp, sp.csr_matrix(np.array([[3, 0], [1, 2]], dtype=np.int64)))
    F = upload(csp, sp.csr_matrix(np.eye(2, dtype=np.float32)))
    with pytest.raises(magnus.UnsupportedTypeError, match="A holds int64.*dtype="):
        ctx.spgemm(I, F)
    with pytest.raises(magnus.UnsupportedTypeError, match="B holds int64"):
        magnus.spgemm(F, I, context=ctx)
    Z = upload(csp, sp.csr_matrix(np.eye(2, dtype=np.complex64)))
    with pytest.raises(magnus.UnsupportedTypeError, match="B holds complex"):
        ctx.spgemm(F, Z, dtype=np.float32)
    C = ctx.spgemm(I, F, dtype=np.float32)
    assert C.dtype == np.float32
    np.testing.assert_array_equal(C.get().toarray(), [[3, 0], [1, 2]])
    del C, I, F, Z
    gc.collect()


def test_non_canonical_input_summed_on_a_copy(fake):
    ctx, cupy, csp = fake
    data = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    idx, ptr = np.array([2, 0, 2, 1], np.int32), np.array([0, 3, 4, 4], np.int32)
    A = csp.csr_matrix((cupy.array(data), cupy.array(idx), cupy.array(ptr)), shape=(3, 3))
    C = ctx.spgemm(A, A)
    ref = sp.csr_matrix((data, idx.copy(), ptr), shape=(3, 3))  # sorted in place below
    ref.sum_duplicates()
    expect_product(C.get(), ref @ ref, np.float32)
    assert (A.indices.get() == idx).all()


def test_result_outlives_inputs_and_closed_context(fake):
    c2, cupy, csp = fake  # the fake's buffers are of this context's cl_context
    hA = rand(60, 60, 0.1, 4, np.float32, array=False)
    A = upload(csp, hA)
    C = c2.spgemm(A, A)
    del A
    gc.collect()
    c2.close()
    assert c2._h, "the context waits for its live result"
    expect_product(C.get(), hA @ hA, np.float32)
    cupy._syncs.clear()
    del C
    gc.collect()
    assert "device" in cupy._syncs, "the owner synchronises the device before the free"
    assert not c2._h, "the last result freed the closed context"
    assert cupy._cl.live == 0, "every buffer the fake made is released"

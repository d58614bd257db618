"""C = alpha·A·B for CuPy sparse matrices (cupyx.scipy.sparse) on their CUDA device, without a
host round trip: the operands' CuPy arrays are wrapped (magnus_device_csr_wrap over their
device pointers), the product stays in magnus's device memory, and the result's CuPy arrays
are views of it (magnus_device_csr_native), kept alive by an owner object that frees magnus's
matrix when the last of them dies.

CuPy is imported here only, and only when an input is a CuPy matrix (is_cupy_sparse looks at
the type's module without importing anything), so the package works without CuPy.
"""
import ctypes
import time
import weakref

import numpy as np

from . import _lib as L
from ._errors import InvalidArgumentError, check_product_shapes

INT32_MAX = 2**31 - 1


def is_cupy_sparse(x):
    """True for a cupyx.scipy.sparse matrix, judged by its type's module (no import)."""
    return (type(x).__module__ or "").startswith("cupyx.scipy.sparse")


def _import_cupy(name, x):
    try:
        import cupy
        import cupyx.scipy.sparse as csp
    except ImportError as e:
        raise TypeError(f"{name} looks like a CuPy sparse matrix ({type(x).__module__}."
                        f"{type(x).__name__}) but CuPy cannot be imported: {e}") from None
    if not csp.issparse(x):
        raise TypeError(f"{name} is a {type(x).__name__} of cupyx.scipy.sparse, not a sparse "
                        "matrix")
    return cupy, csp


def check_pair(A, B):
    """Both operands CuPy (the device path) or neither; a mix is refused, as a silent copy
    between host and device would hide the cost the caller chose CuPy to avoid."""
    a, b = is_cupy_sparse(A), is_cupy_sparse(B)
    if a != b:
        host, dev = ("B", "A") if a else ("A", "B")
        raise TypeError(f"{dev} is a CuPy (device) matrix but {host} is not: give both as "
                        "cupyx.scipy.sparse matrices on one CUDA device, or both as "
                        "scipy.sparse")
    return a


def cuda_device_id(A, B):
    """The CUDA device ordinal both operands live on (CuPy's Device.id)."""
    cupy, _ = _import_cupy("A", A)
    _import_cupy("B", B)
    ids = {X.data.device.id for X in (A, B)}
    if len(ids) != 1:
        raise InvalidArgumentError(-3, f"A is on CUDA device {A.data.device.id} and B on "
                                   f"{B.data.device.id}: both must be on one device")
    return ids.pop()


def check_context(ctx, device_id):
    """ctx must be a CUDA context on CuPy's device `device_id`: the ordinal magnus_context_native
    gives (the CUdevice) is the one CuPy's Device.id names, in one process."""
    nh = L.NativeHandles()
    L.check(L.lib().magnus_context_native(ctypes.byref(nh), ctx._handle()))
    if nh.backend != L.BACKEND_CUDA:
        raise InvalidArgumentError(-3, f"CuPy matrices need a CUDA context on their device "
                                   f"(cuda:{device_id}); this one is on {ctx.device.spec} "
                                   f"({ctx.device.name})")
    ordinal = nh.device or 0  # the CUdevice ordinal cast to a pointer (0 reads as None)
    if ordinal != device_id:
        raise InvalidArgumentError(-3, f"the CuPy matrices are on CUDA device {device_id} but "
                                   f"the context is on CUDA device {ordinal} "
                                   f"({ctx.device.spec}); pass a context or device on "
                                   f"device {device_id}")


def _canonical(cupy, X, dt, name):
    """CSR on the device with sorted, summed indices, int64 row pointers (magnus's), int32
    columns and values of dt: (X, indptr64, indices, data), X keeping the arrays alive."""
    X = X.tocsr()
    if X.shape[0] > INT32_MAX or X.shape[1] > INT32_MAX:
        raise InvalidArgumentError(-3, f"{name}: a {X.shape[0]} x {X.shape[1]} matrix: magnus "
                                   "takes at most 2^31-1 rows and columns")
    if X.dtype != dt:
        X = X.astype(dt)
    if not X.has_canonical_format:  # a kernel and a sync; sum_duplicates works in place
        X = X.copy()
        X.sum_duplicates()
    indptr = X.indptr.astype(cupy.int64)  # always a new array (CuPy keeps int32 row pointers)
    indices = cupy.ascontiguousarray(X.indices, dtype=cupy.int32)
    data = cupy.ascontiguousarray(X.data, dtype=dt)
    return X, indptr, indices, data


def _wrap(ctx, X, indptr, indices, data, t):
    d = ctypes.c_void_p()
    nnz = int(data.size)
    L.check(L.lib().magnus_device_csr_wrap(
        ctypes.byref(d), ctx._handle(), X.shape[0], X.shape[1], nnz, t, indptr.data.ptr,
        indices.data.ptr if nnz else None, data.data.ptr if nnz else None))
    return d


class _DeviceResult:
    """Owns a magnus device matrix whose buffers CuPy arrays view (cupy.cuda.UnownedMemory
    holds this object); freed when the last such array dies. Before the free the CUDA device
    is synchronised: magnus frees stream-ordered on its own queues only (and may reuse the
    memory in its next multiply), so a CuPy kernel still reading must finish first."""

    def __init__(self, ctx, handle, device_id):
        self._ctx = ctx  # the context outlives its matrices (Context.close defers to them)
        self._h = handle
        self._device_id = device_id
        ctx._borrowers.add(self)

    def free(self):
        h, self._h = getattr(self, "_h", None), None
        if not h:
            return
        try:
            import cupy
            cupy.cuda.Device(self._device_id).synchronize()
        except Exception:  # interpreter shutdown or a failed device: free regardless
            pass
        L.lib().magnus_device_csr_free(ctypes.byref(h))
        self._ctx._borrowers.discard(self)
        self._ctx._release_deferred()

    __del__ = free


def _view(cupy, owner, ptr, count, dtype, device_id):
    if count == 0:
        return cupy.empty(0, dtype)
    nbytes = count * np.dtype(dtype).itemsize
    mem = cupy.cuda.UnownedMemory(ptr, nbytes, owner, device_id)
    return cupy.ndarray((count,), dtype, memptr=cupy.cuda.MemoryPointer(mem, 0))


def _csr_from_parts(csp, data, indices, indptr, shape):
    """The result matrix over magnus's arrays. CuPy's public constructor checks and converts
    what magnus already guarantees (dtypes, sizes; several kernels, a sync): about 0.4 ms a
    call on the H200. Where cupyx has its constructor for pre-validated parts (_from_parts,
    same index dtypes required) that is used, with the canonical flag set; else the public
    one."""
    from_parts = getattr(csp.csr_matrix, "_from_parts", None)
    if from_parts is not None and indices.dtype == indptr.dtype:
        try:
            return from_parts(data, indices, indptr, shape, has_canonical_format=True)
        except TypeError:  # another signature in this CuPy: the public constructor below
            pass
    C = csp.csr_matrix((data, indices, indptr), shape=shape, copy=False)
    C.has_canonical_format = True  # magnus's rows are sorted and duplicate-free
    return C


def spgemm(ctx, A, B, opt, dtype, value_dtype):
    """C = alpha·A·B on ctx (a CUDA context on the operands' device, checked by the caller) for
    cupyx.scipy.sparse A and B; returns (csr_matrix, magnus Report, python times): the times
    (ms) before magnus_spgemm_device (in: conversions and the wait for CuPy's stream, then the
    wraps and their device checks, also on their own as convert and wrap) and after it (out:
    the result's views and matrix)."""
    t0 = time.perf_counter()
    cupy, csp = _import_cupy("A", A)
    check_product_shapes(A, B)
    dt = value_dtype(A, B, dtype)
    t = L.FLOAT64 if dt == np.float64 else L.FLOAT32
    device_id = A.data.device.id
    lib = L.lib()
    with cupy.cuda.Device(device_id):
        a = _canonical(cupy, A, dt, "A")
        b = a if B is A else _canonical(cupy, B, dt, "B")
        # the wrap checks the structure on magnus's own stream: CuPy's conversions above,
        # queued on its current stream, must be done first
        cupy.cuda.get_current_stream().synchronize()
        t_wrap = time.perf_counter()
        dA = _wrap(ctx, *a, t)
        dB = dA
        dC = ctypes.c_void_p()
        rep = L.Report()
        try:
            if b is not a:
                dB = _wrap(ctx, *b, t)
            # synchronous: magnus's queues are idle, and C complete, when it returns
            t1 = time.perf_counter()
            L.check(lib.magnus_spgemm_device(ctypes.byref(dC), ctx._handle(), dA, dB,
                                             ctypes.byref(opt), ctypes.byref(rep)))
            t2 = time.perf_counter()
        finally:
            # the wrappers only: the operands' arrays stay CuPy's (alive in a and b until here)
            if dB.value != dA.value:
                lib.magnus_device_csr_free(ctypes.byref(dB))
            lib.magnus_device_csr_free(ctypes.byref(dA))
        owner = _DeviceResult(ctx, dC, device_id)
        nb = L.DeviceCSRBuffers()
        L.check(lib.magnus_device_csr_native(ctypes.byref(nb), dC))
        rows, nnz = nb.rows, nb.nnz
        indptr64 = _view(cupy, owner, nb.row_ptr, rows + 1, cupy.int64, device_id)
        indices = _view(cupy, owner, nb.col_idx, nnz, cupy.int32, device_id)
        data = _view(cupy, owner, nb.values, nnz, dt, device_id)
        # cupyx keeps int32 row pointers when they fit (CuPy before 14 has int32 indices
        # only): the one conversion is made here, on the device; indices and data stay views
        # of magnus's memory (no copy). More entries need CuPy 14's int64 indices (the
        # constructor then widens the columns itself, a copy).
        if nnz <= INT32_MAX:
            indptr = indptr64.astype(cupy.int32)
        elif int(cupy.__version__.split(".")[0]) >= 14:
            indptr = indptr64
        else:
            raise InvalidArgumentError(-3, f"C has {nnz} entries: more than a cupyx matrix "
                                       f"of int32 indices holds (CuPy {cupy.__version__})")
        del indptr64, owner  # the int64 row pointers die; indices and data hold the owner
        C = _csr_from_parts(csp, data, indices, indptr, (nb.rows, nb.cols))
    t3 = time.perf_counter()
    return C, rep, {"time_python_in_ms": (t1 - t0) * 1e3, "time_python_out_ms": (t3 - t2) * 1e3,
                    "time_python_convert_ms": (t_wrap - t0) * 1e3,
                    "time_python_wrap_ms": (t1 - t_wrap) * 1e3}


def new_borrowers():
    return weakref.WeakSet()

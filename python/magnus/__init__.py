"""magnus: sparse matrix-matrix multiplication C = alpha·A·B on a GPU (CUDA, Level Zero or
any OpenCL device) through libmagnus, for SciPy sparse matrices.

    import magnus, scipy.sparse as sp
    A = sp.csr_array(sp.random(1000, 1000, density=0.01, format="csr"))
    C = magnus.spgemm(A, A)                      # scipy.sparse.csr_array, like A @ A
    ctx = magnus.Context(device="opencl:cpu")    # a device spec, as MAGNUS_DEVICE takes
    C, report = ctx.spgemm(A, A, alpha=2.0, return_report=True)
    plan = ctx.plan(A, A)                        # symbolic once ...
    C2 = plan.execute(A * 3, A * 3)              # ... numeric for new values, same structure

Inputs: any scipy.sparse matrix or array, converted to CSR with sorted, summed (duplicate-
free) indices, int64 row pointers and int32 columns. Values are float32 or float64: `dtype`
picks one, else float32 when both inputs are float32 and float64 otherwise. Other value types
raise UnsupportedTypeError rather than change silently: integer and bool values (an int64
made float64 rounds beyond 2^53) are converted only when `dtype` is given, complex values
never (their imaginary parts would be lost); the same for spmv's x and y. The result is a csr_array, or a csr_matrix when neither input is an array
(both spmatrix). Explicit zeros that cancellation leaves in C are kept, as SciPy keeps them.

Errors raise magnus.Error subclasses carrying the status name, its code and magnus's message.
libmagnus is found through MAGNUS_LIBRARY, then the package's own copy, then the system
loader (magnus._lib).

CuPy: when A and B are both cupyx.scipy.sparse matrices on one CUDA device, spgemm (and
Context.spgemm) multiplies them there without a host round trip and returns a
cupyx.scipy.sparse.csr_matrix whose columns and values are magnus's device memory (magnus._cupy
says how; CuPy is imported only for such inputs). The context must be a CUDA context on that
device (by default: "cuda:<the arrays' device id>"). Plans take scipy.sparse only.
"""
import ctypes
import time

import numpy as np
import scipy.sparse as sp

from . import _cupy
from . import _lib as L
from ._errors import (DeviceError, DimensionMismatchError, Error, InvalidArgumentError,
                      LibraryNotFoundError, NoDeviceError, OutOfMemoryError,
                      UnsupportedTypeError, check_product_shapes)

__version__ = "0.1.0"
__all__ = ["Context", "Device", "Plan", "Error", "DeviceError", "DimensionMismatchError",
           "InvalidArgumentError", "LibraryNotFoundError", "NoDeviceError", "OutOfMemoryError",
           "UnsupportedTypeError", "devices", "spgemm", "spmv", "library_version", "library_path"]

# "magnus", gMAGNUS's former name, is still accepted; reports say "gmagnus"
_ALGORITHMS = {None: L.ALGORITHM_AUTO, "auto": L.ALGORITHM_AUTO, "gmagnus": L.ALGORITHM_GMAGNUS,
               "magnus": L.ALGORITHM_GMAGNUS, "hash": L.ALGORITHM_HASH}
_ALGORITHM_NAMES = {L.ALGORITHM_AUTO: "auto", L.ALGORITHM_GMAGNUS: "gmagnus",
                    L.ALGORITHM_HASH: "hash"}


def library_version():
    """libmagnus's version, "major.minor.patch"."""
    return L.lib().magnus_version().decode()


def library_path():
    """The path libmagnus was loaded from."""
    return L.library_path()


class Device:
    """A device as the probe lists it (magnus_device_info)."""

    def __init__(self, info):
        self._info = DeviceInfoCopy(info)
        self.backend = L.lib().magnus_backend_name(info.backend).decode()
        self.index = info.index
        self.name = info.name.decode("utf-8", "replace")
        self.vendor = info.vendor.decode("utf-8", "replace")
        self.driver_version = info.driver_version.decode("utf-8", "replace")
        self.global_mem_bytes = info.global_mem_bytes
        self.local_mem_bytes = info.local_mem_bytes
        self.compute_units = info.compute_units
        self.fp64 = bool(info.fp64)
        self.is_cpu = bool(info.is_cpu)

    @property
    def spec(self):
        """A device spec naming this device: "BACKEND:INDEX"."""
        return f"{self.backend}:{self.index}"

    def __repr__(self):
        kind = "cpu" if self.is_cpu else "gpu"
        return f"<magnus.Device {self.spec} {kind} {self.name!r}>"


def DeviceInfoCopy(info):
    c = L.DeviceInfo()
    ctypes.memmove(ctypes.byref(c), ctypes.byref(info), ctypes.sizeof(c))
    return c


def devices():
    """Every device of every backend that loads (MAGNUS_BACKENDS selects and orders them);
    an empty list when there is none."""
    lib = L.lib()
    count = ctypes.c_size_t(0)
    L.check(lib.magnus_device_probe(None, 0, ctypes.byref(count)))
    if count.value == 0:
        return []
    arr = (L.DeviceInfo * count.value)()
    L.check(lib.magnus_device_probe(arr, count.value, ctypes.byref(count)))
    return [Device(arr[i]) for i in range(min(count.value, len(arr)))]


# ---- host matrices -------------------------------------------------------------------------

def _is_sparse_array(x):
    cls = getattr(sp, "sparray", None)
    if cls is not None:
        return isinstance(x, cls)
    return type(x).__name__.endswith("_array")


def _reject_foreign(x, name):
    mod = type(x).__module__ or ""
    if _cupy.is_cupy_sparse(x):
        raise TypeError(f"{name}: CuPy matrices are taken by magnus.spgemm and Context.spgemm "
                        "only (both operands CuPy); convert with .get() to scipy.sparse here")
    if mod.startswith("cupy"):
        raise TypeError(f"{name}: a CuPy {type(x).__name__} is not a sparse matrix; give a "
                        "cupyx.scipy.sparse matrix")
    if not sp.issparse(x):
        raise TypeError(f"{name} must be a scipy.sparse matrix or array, not "
                        f"{type(x).__name__}")


def _check_values(dt, name, converting):
    """Refuses value types magnus would change without being asked: float32 and float64 pass;
    integers, bool and other real floats only when the caller gave dtype= (`converting`), as an
    int64 made float64 silently rounds beyond 2^53; complex never (numpy would drop the
    imaginary parts with a mere ComplexWarning), nor what is not a number."""
    dt = np.dtype(dt)
    if dt in (np.float32, np.float64):
        return
    if np.issubdtype(dt, np.complexfloating):
        raise UnsupportedTypeError(-5, f"{name} holds complex values ({dt}); magnus multiplies "
                                   "float32 or float64 (the imaginary parts would be lost)")
    if not (np.issubdtype(dt, np.integer) or np.issubdtype(dt, np.floating) or dt == np.bool_):
        raise UnsupportedTypeError(-5, f"{name} holds {dt} values; magnus multiplies float32 "
                                   "or float64")
    if not converting:
        rounds = " (integers beyond 2^53 round)" if np.issubdtype(dt, np.integer) else ""
        raise UnsupportedTypeError(-5, f"{name} holds {dt} values; magnus multiplies float32 "
                                   f"or float64: convert it, or pass dtype=np.float64 (or "
                                   f"np.float32) to have it converted{rounds}")


def _value_dtype(A, B, dtype, converting=None):
    """The product's value type: dtype when given, else float32 when A and B both are and
    float64 otherwise; A's and B's types checked by _check_values (converting: whether they may
    be converted; by default when dtype is given)."""
    if converting is None:
        converting = dtype is not None
    for X, name in ((A, "A"), (B, "B")):
        _check_values(X.dtype, name, converting)
    if dtype is not None:
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise UnsupportedTypeError(-5, f"dtype {dt} is not float32 or float64")
        return dt
    if A.dtype == np.float32 and B.dtype == np.float32:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _real_scalar(v, name):
    """A finite real scalar (alpha, beta) as a float: complex values (numpy's complex scalars
    convert to float with only a ComplexWarning), strings and NaN/inf are refused."""
    if isinstance(v, (bool, np.bool_)) or np.iscomplexobj(v):
        raise InvalidArgumentError(-3, f"{name} must be a real number, not {v!r}")
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise InvalidArgumentError(-3, f"{name} must be a real number, not {v!r}") from None
    if not np.isfinite(f):
        raise InvalidArgumentError(-3, f"{name} = {f} is not a finite number")
    return f


def _canonical(X, dt):
    """CSR with sorted, summed indices, int64 indptr, int32 indices, values of dt: the caller's
    arrays themselves where they already are that (no copy; the caller's matrix is never
    modified), else converted copies."""
    X = sp.csr_matrix(X, dtype=dt, copy=False)  # a new object; arrays shared when they fit
    if not X.has_canonical_format:  # an O(nnz) check in SciPy's C code, cached on X
        X = X.copy()
        X.sum_duplicates()  # sorts the indices too
    if X.shape[0] > 2**31 - 1 or X.shape[1] > 2**31 - 1:
        raise InvalidArgumentError(-3, f"a {X.shape[0]} x {X.shape[1]} matrix: magnus takes at "
                                   "most 2^31-1 rows and columns")
    return (np.ascontiguousarray(X.indptr, dtype=np.int64),
            np.ascontiguousarray(X.indices, dtype=np.int32),
            np.ascontiguousarray(X.data, dtype=dt), X.shape)


class _HostCSR:
    """A magnus_csr filled from numpy arrays (a copy); freed with the object."""

    def __init__(self, indptr, indices, data, shape):
        self.ptr = L.CSRP()
        t = L.FLOAT64 if data.dtype == np.float64 else L.FLOAT32
        L.check(L.lib().magnus_csr_new(ctypes.byref(self.ptr), shape[0], shape[1], len(data), t))
        c = self.ptr.contents
        ctypes.memmove(c.row_ptr, indptr.ctypes.data, indptr.nbytes)
        if len(data):
            ctypes.memmove(c.col_idx, indices.ctypes.data, indices.nbytes)
            ctypes.memmove(c.values, data.ctypes.data, data.nbytes)

    def free(self):
        if self.ptr:
            L.lib().magnus_csr_free(ctypes.byref(self.ptr))

    __del__ = free


class _CSROwner:
    """Owns a magnus_csr whose arrays back numpy arrays (freed when the last of them dies)."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        if self.ptr:
            L.lib().magnus_csr_free(ctypes.byref(self.ptr))


def _borrow(owner, address, ctype, n, dtype):
    """A numpy view of n elements at address that keeps `owner` alive."""
    buf = (ctype * n).from_address(address)
    buf._owner = owner
    return np.frombuffer(buf, dtype=dtype)


def _to_scipy(ptr, as_array):
    """A scipy CSR over a magnus_csr's own arrays, without copying C's columns and values: the
    result owns the magnus_csr and frees it when its arrays die; ptr is set to NULL (the
    caller's magnus_csr_free then does nothing). The row pointers are converted (int32 when
    nnz allows, so that scipy keeps the int32 columns as they are instead of widening them)."""
    c = ptr.contents
    dt = np.float64 if c.type == L.FLOAT64 else np.float32
    rows, cols, nnz = c.rows, c.cols, c.nnz
    index_dt = np.int32 if nnz <= 2**31 - 1 else np.int64
    indptr = np.ctypeslib.as_array(c.row_ptr, shape=(rows + 1,)).astype(index_dt)
    if nnz:
        owner = _CSROwner(L.CSRP(c))
        indices = _borrow(owner, ctypes.cast(c.col_idx, ctypes.c_void_p).value, ctypes.c_int32,
                          nnz, np.int32)
        data = _borrow(owner, ctypes.cast(c.values, ctypes.c_void_p).value,
                       ctypes.c_double if dt == np.float64 else ctypes.c_float, nnz, dt)
        ctypes.memset(ctypes.byref(ptr), 0, ctypes.sizeof(ptr))  # the owner has it now
    else:
        indices, data = np.zeros(0, np.int32), np.zeros(0, dt)
    cls = sp.csr_array if as_array else sp.csr_matrix
    M = cls((data, indices, indptr), shape=(rows, cols))
    M.has_sorted_indices = True
    return M


def _report_dict(r, python_times=None):
    d = dict(python_times or {})
    for name, _ in L.Report._fields_:
        v = getattr(r, name)
        if isinstance(v, bytes) or v is None:
            d[name] = v.decode() if v else ""
        else:
            d[name] = list(v) if not isinstance(v, (int, float)) else v
    d["algorithm"] = _ALGORITHM_NAMES.get(r.algorithm, r.algorithm)
    d["algorithm_requested"] = _ALGORITHM_NAMES.get(r.algorithm_requested,
                                                    r.algorithm_requested)
    d["levels"] = int(r.levels)
    for k in ("time_histogram_ms", "time_multisplit_ms", "chunks_per_level"):
        d[k] = d[k][:max(d["levels"], 0)]
    return d


def _options(algorithm, alpha):
    if algorithm not in _ALGORITHMS:
        raise InvalidArgumentError(-3, f"unknown algorithm {algorithm!r}: 'auto', 'magnus' or 'hash'")
    alpha = _real_scalar(alpha, "alpha")
    o = L.SpgemmOptions()
    L.check(L.lib().magnus_spgemm_options_init(ctypes.byref(o)))
    o.algorithm = _ALGORITHMS[algorithm]
    o.alpha = alpha
    return o


def _operands(A, B, dtype, converting=None):
    _reject_foreign(A, "A")
    _reject_foreign(B, "B")
    check_product_shapes(A, B)
    dt = _value_dtype(A, B, dtype, converting)
    as_array = _is_sparse_array(A) or _is_sparse_array(B)
    hA = _HostCSR(*_canonical(A, dt))
    hB = hA if B is A else _HostCSR(*_canonical(B, dt))
    return hA, hB, as_array


# ---- contexts ------------------------------------------------------------------------------

class _Closing:
    """`with` support for the handles that free themselves with close()."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Context(_Closing):
    """A context on one device: Context(device=None, *, local_mem_bytes=0,
    device_memory_limit=0, chat_batch_bytes=0). chat_batch_bytes: gMAGNUS's most bytes of
    C-hat per row block (0: MAGNUS_CHAT_BATCH_BYTES, else an eighth of the device's memory
    or of device_memory_limit); report["batches"] says how many blocks ran. device: None
    (MAGNUS_DEVICE if set, else the best device), a
    device spec string as MAGNUS_DEVICE takes it ("opencl:cpu", "gpu", "0", "h200"), or a
    magnus.Device. Use it from one thread at a time; close() (or `with`) frees it."""

    def __init__(self, device=None, *, local_mem_bytes=0, device_memory_limit=0,
                 chat_batch_bytes=0):
        lib = L.lib()
        self._h = ctypes.c_void_p()
        self._closed = False
        self._borrowers = _cupy.new_borrowers()  # live CuPy results over magnus's memory
        info = L.DeviceInfo()
        if device is None:
            L.check(lib.magnus_device_select(ctypes.byref(info)))
        elif isinstance(device, Device):
            info = DeviceInfoCopy(device._info)
        elif isinstance(device, str):
            L.check(lib.magnus_device_find(ctypes.byref(info), device.encode()))
        else:
            raise TypeError("device must be None, a device spec string or a magnus.Device")
        opt = L.ContextOptions()
        L.check(lib.magnus_context_options_init(ctypes.byref(opt)))
        opt.local_mem_bytes = int(local_mem_bytes)
        opt.device_memory_limit = int(device_memory_limit)
        opt.chat_batch_bytes = int(chat_batch_bytes)
        L.check(lib.magnus_context_create(ctypes.byref(self._h), ctypes.byref(info),
                                          ctypes.byref(opt)))
        used = L.DeviceInfo()
        L.check(lib.magnus_context_device(ctypes.byref(used), self._h))
        self.device = Device(used)

    def _handle(self):
        if not self._h or self._closed:
            raise InvalidArgumentError(-2, "the context is closed")
        return self._h

    def close(self):
        """Frees the context (its plans must be closed first, or are closed now). While CuPy
        results of it are alive (their arrays are its device memory) the context only stops
        taking work, and is freed when the last of them dies."""
        if getattr(self, "_h", None):
            for p in list(getattr(self, "_plans", ())):
                p.close()
            self._closed = True
            self._release_deferred()

    def _release_deferred(self):
        if self._closed and self._h and not len(self._borrowers):
            L.lib().magnus_context_free(ctypes.byref(self._h))

    __del__ = close

    def __repr__(self):
        return f"<magnus.Context on {self.device!r}>"

    def spgemm(self, A, B, *, algorithm=None, dtype=None, alpha=1.0, return_report=False):
        """C = alpha·A·B on this context's device (magnus.spgemm has the details)."""
        opt = _options(algorithm, alpha)
        if _cupy.check_pair(A, B):
            _cupy.check_context(self, _cupy.cuda_device_id(A, B))
            out, rep, times = _cupy.spgemm(self, A, B, opt, dtype, _value_dtype)
            return (out, _report_dict(rep, times)) if return_report else out
        t0 = time.perf_counter()
        hA, hB, as_array = _operands(A, B, dtype)
        C = L.CSRP()
        rep = L.Report()
        try:
            t1 = time.perf_counter()
            L.check(L.lib().magnus_spgemm(ctypes.byref(C), self._handle(), hA.ptr, hB.ptr,
                                          ctypes.byref(opt), ctypes.byref(rep)))
            t2 = time.perf_counter()
            out = _to_scipy(C, as_array)
        finally:
            L.lib().magnus_csr_free(ctypes.byref(C))
        times = {"time_python_in_ms": (t1 - t0) * 1e3,
                 "time_python_out_ms": (time.perf_counter() - t2) * 1e3}
        return (out, _report_dict(rep, times)) if return_report else out

    def spmv(self, A, x, *, y=None, alpha=1.0, beta=0.0, format="auto", dtype=None,
             return_report=False):
        """y = alpha·A·x + beta·y on this context's device (magnus.spmv has the details)."""
        _reject_foreign(A, "A")
        if len(A.shape) != 2:
            raise InvalidArgumentError(-3, "A must be 2-D")
        fmt = L.SPMV_FORMATS.get(format)
        if fmt is None:
            raise InvalidArgumentError(-3, f"format {format!r} is none of "
                                       f"{', '.join(L.SPMV_FORMATS)}")
        alpha, beta = _real_scalar(alpha, "alpha"), _real_scalar(beta, "beta")
        dt = _value_dtype(A, A, dtype)
        xs = np.asarray(x)
        _check_values(xs.dtype, "x", dtype is not None)
        if xs.dtype != dt and dtype is None and xs.dtype == np.float64:
            dt = np.dtype(np.float64)  # float32 A with float64 x: the product in float64
        xs = np.ascontiguousarray(xs, dtype=dt)
        if xs.ndim != 1 or xs.shape[0] != A.shape[1]:
            raise DimensionMismatchError(-4, f"x has shape {np.shape(x)}; A is {A.shape[0]} x "
                                         f"{A.shape[1]}, so x needs {A.shape[1]} values")
        if y is None:
            ys = np.zeros(A.shape[0], dtype=dt)
        else:
            _check_values(np.asarray(y).dtype, "y", dtype is not None)
            ys = np.array(y, dtype=dt, copy=True)  # the caller's y is not overwritten
            if ys.ndim != 1 or ys.shape[0] != A.shape[0]:
                raise DimensionMismatchError(-4, f"y has shape {np.shape(y)}; A has "
                                             f"{A.shape[0]} rows")
        hA = _HostCSR(*_canonical(A, dt))
        opt = L.SpmvOptions()
        L.check(L.lib().magnus_spmv_options_init(ctypes.byref(opt)))
        opt.format = fmt
        rep = L.SpmvReport()
        try:
            L.check(L.lib().magnus_spmv_host(ys.ctypes.data, self._handle(), float(alpha), hA.ptr,
                                             xs.ctypes.data, float(beta), ctypes.byref(opt),
                                             ctypes.byref(rep)))
        finally:
            hA.free()
        if not return_report:
            return ys
        d = {name: getattr(rep, name) for name, _ in L.SpmvReport._fields_}
        d["format"] = L.lib().magnus_spmv_format_name(rep.format).decode()
        d["format_reason"] = rep.format_reason.decode() if rep.format_reason else None
        return ys, d

    def plan(self, A, B, *, dtype=None, alpha=1.0):
        """A Plan for C = alpha·A·B: the symbolic phase now, numeric phases by
        plan.execute(A2, B2) for matrices of the same structures (shape, nnz, and row pointers
        and column indices after conversion to sorted canonical CSR)."""
        return Plan(self, A, B, dtype, alpha)

    def _upload(self, h):
        d = ctypes.c_void_p()
        L.check(L.lib().magnus_device_csr_upload(ctypes.byref(d), self._handle(), h.ptr))
        return d


class Plan(_Closing):
    """Symbolic once, numeric many (magnus_spgemm_plan): made by Context.plan. By default it
    keeps every product's position in C (execute is one pass over the products; see
    magnus_spgemm_plan_create in magnus.h for the other kind); `info` is a dict of what it
    holds (C's shape and nnz, the device bytes it keeps, the positions it keeps (0 for the
    hash kind), the algorithm that made C's structure, create's report)."""

    def __init__(self, ctx, A, B, dtype, alpha):
        self._h = ctypes.c_void_p()
        self._ctx = ctx
        opt = _options(None, alpha)
        hA, hB, self._as_array = _operands(A, B, dtype)
        self._converting = dtype is not None  # execute converts integers only then too
        self.dtype = np.dtype(np.float64 if hA.ptr.contents.type == L.FLOAT64 else np.float32)
        lib = L.lib()
        dA = ctx._upload(hA)
        dB = dA
        try:
            if hB is not hA:
                dB = ctx._upload(hB)
            L.check(lib.magnus_spgemm_plan_create(ctypes.byref(self._h), ctx._handle(), dA, dB,
                                                  ctypes.byref(opt)))
        finally:
            if dB.value != dA.value:
                lib.magnus_device_csr_free(ctypes.byref(dB))
            lib.magnus_device_csr_free(ctypes.byref(dA))
        if not hasattr(ctx, "_plans"):
            import weakref
            ctx._plans = weakref.WeakSet()
        ctx._plans.add(self)
        info = L.PlanInfo()
        L.check(lib.magnus_spgemm_plan_info_get(ctypes.byref(info), self._h))
        self.shape = (info.rows, info.cols)
        self.nnz = info.nnz
        self.alpha = info.alpha
        self.info = {"rows": info.rows, "cols": info.cols, "nnz": info.nnz,
                     "dtype": str(self.dtype), "algorithm": _ALGORITHM_NAMES[info.algorithm],
                     "alpha": info.alpha, "device_bytes": info.device_bytes,
                     "positions": info.positions, "symbolic": _report_dict(info.symbolic)}

    def execute(self, A, B, *, return_report=False):
        """C = alpha·A·B for A and B with the plan's structures and new values (float32 or
        float64, converted to the plan's dtype; integer or bool values only when the plan was
        made with dtype=). Another structure raises InvalidArgumentError, another shape
        DimensionMismatchError."""
        if not self._h:
            raise InvalidArgumentError(-2, "the plan is closed")
        hA, hB, _ = _operands(A, B, self.dtype, self._converting)
        lib = L.lib()
        dA = self._ctx._upload(hA)
        dB = dA
        dC = ctypes.c_void_p()
        C = L.CSRP()
        rep = L.Report()
        try:
            if hB is not hA:
                dB = self._ctx._upload(hB)
            L.check(lib.magnus_spgemm_plan_execute(ctypes.byref(dC), self._h, dA, dB,
                                                   ctypes.byref(rep)))
            L.check(lib.magnus_device_csr_download(ctypes.byref(C), dC))
            out = _to_scipy(C, self._as_array)
        finally:
            lib.magnus_csr_free(ctypes.byref(C))
            lib.magnus_device_csr_free(ctypes.byref(dC))
            if dB.value != dA.value:
                lib.magnus_device_csr_free(ctypes.byref(dB))
            lib.magnus_device_csr_free(ctypes.byref(dA))
        return (out, _report_dict(rep)) if return_report else out

    def close(self):
        """Frees the plan's device memory."""
        if getattr(self, "_h", None):
            L.lib().magnus_spgemm_plan_free(ctypes.byref(self._h))

    __del__ = close


_contexts = {}


def _default_context(device):
    key = device.spec if isinstance(device, Device) else device
    ctx = _contexts.get(key)
    if ctx is None:
        ctx = _contexts[key] = Context(device)
    return ctx


def spgemm(A, B, *, device=None, algorithm=None, dtype=None, alpha=1.0, return_report=False,
           context=None):
    """C = alpha·A·B for scipy.sparse A and B, like `alpha * (A @ B)`.

    device: None (MAGNUS_DEVICE, else the best device), a device spec string or a Device; a
    context per device is made on first use and kept for later calls (or pass `context`).
    algorithm: None or "auto" (the library's choice per product; the report's
    algorithm_reason says why), "gmagnus" (gMAGNUS; "magnus" is accepted too), or "hash".
    dtype: float32 or float64 (default from the inputs: float32 when both are float32, else
    float64); inputs of other types raise UnsupportedTypeError unless dtype is given (integers, bool: then converted; complex:
    always). alpha: a finite real number.
    CuPy: A and B both cupyx.scipy.sparse on one CUDA device multiply there (device None:
    "cuda:<their device id>"; a device or context elsewhere raises InvalidArgumentError) and
    give a cupyx.scipy.sparse.csr_matrix over magnus's memory; one of each raises TypeError.
    Returns a scipy.sparse.csr_array (csr_matrix when neither input is an array), and with
    return_report=True also the report (a dict of magnus_report's fields: times in ms,
    tau, heavy rows, products, nnz_c, peak device bytes, ...; and what the Python layer spent
    around the library's call: time_python_in_ms converting the inputs (CuPy: and wrapping
    them, the device checks included), time_python_out_ms making the result)."""
    if context is not None and device is not None:
        raise InvalidArgumentError(-3, "give a device or a context, not both")
    if context is None and _cupy.check_pair(A, B):
        # CuPy operands: their own CUDA device unless told otherwise (Context.spgemm checks
        # that a given device is that one)
        device_id = _cupy.cuda_device_id(A, B)
        ctx = _default_context(f"cuda:{device_id}" if device is None else device)
        return ctx.spgemm(A, B, algorithm=algorithm, dtype=dtype, alpha=alpha,
                          return_report=return_report)
    ctx = context if context is not None else _default_context(device)
    return ctx.spgemm(A, B, algorithm=algorithm, dtype=dtype, alpha=alpha,
                      return_report=return_report)


def spmv(A, x, *, y=None, alpha=1.0, beta=0.0, format="auto", device=None, dtype=None,
         return_report=False, context=None):
    """y = alpha·A·x + beta·y for a scipy.sparse A and a 1-D x, like `alpha * (A @ x) + beta * y`.

    y: None (zeros; beta then has no effect) or A.shape[0] values, not modified (a new array is
    returned). format: "auto" (chosen from the row lengths, docs/algorithm.md §9), "csr",
    "csr-balanced", "coo", "hybrid" or "sellp". dtype: float32 or float64 (default: A's, float64
    when x is float64 or A is not float32); A, x and y hold float32 or float64 values, or
    integers or bool when dtype is given (converted), never complex (UnsupportedTypeError).
    device and context as for magnus.spgemm. Returns
    the numpy array y, and with return_report=True also the report (format that ran,
    conversion_ms, product_ms, floor_bytes, ...). beta == 0 never reads y (NaN in y stays out)."""
    if context is not None and device is not None:
        raise InvalidArgumentError(-3, "give a device or a context, not both")
    ctx = context if context is not None else _default_context(device)
    return ctx.spmv(A, x, y=y, alpha=alpha, beta=beta, format=format, dtype=dtype,
                    return_report=return_report)

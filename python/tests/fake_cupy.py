"""A stand-in for the part of CuPy that magnus._cupy uses, with "device arrays" that are
OpenCL buffers of a magnus OpenCL context (cl_mem handles where CuPy has device pointers), so
that the CuPy path's flow (wrap, multiply, borrow C's buffers, views kept alive by their owner)
runs on PoCL without CuPy or a GPU. Only what magnus._cupy and test_cupy_fake.py touch;
installed into sys.modules by that test alone."""
import ctypes
import types

import numpy as np
import scipy.sparse as sp

CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR = 1, 32


class _CL:
    def __init__(self, context, device):
        cl = ctypes.CDLL("libOpenCL.so.1")
        cl.clCreateBuffer.restype = ctypes.c_void_p
        cl.clCreateBuffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t,
                                      ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32)]
        cl.clCreateCommandQueue.restype = ctypes.c_void_p
        cl.clCreateCommandQueue.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64,
                                            ctypes.POINTER(ctypes.c_int32)]
        cl.clEnqueueReadBuffer.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32,
                                           ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                           ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
        cl.clReleaseMemObject.argtypes = [ctypes.c_void_p]
        cl.clReleaseCommandQueue.argtypes = [ctypes.c_void_p]
        self.cl, self.context = cl, context
        err = ctypes.c_int32(0)
        self.queue = cl.clCreateCommandQueue(context, device, 0, ctypes.byref(err))
        assert err.value == 0, f"clCreateCommandQueue: {err.value}"
        self.live = 0  # buffers this fake made and has not released

    def create(self, host):
        host = np.ascontiguousarray(host)
        err = ctypes.c_int32(0)
        one = np.zeros(1, np.uint8)
        src = host if host.nbytes else one
        m = self.cl.clCreateBuffer(self.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   src.nbytes, src.ctypes.data, ctypes.byref(err))
        assert err.value == 0, f"clCreateBuffer: {err.value}"
        self.live += 1
        return m

    def read(self, mem, nbytes, dtype, count):
        out = np.empty(count, dtype)
        if nbytes:
            r = self.cl.clEnqueueReadBuffer(self.queue, mem, 1, 0, nbytes, out.ctypes.data, 0,
                                            None, None)
            assert r == 0, f"clEnqueueReadBuffer: {r}"
        return out

    def release(self, mem):
        self.cl.clReleaseMemObject(mem)
        self.live -= 1


def make(context, device):
    """(cupy, cupyx, cupyx.scipy, cupyx.scipy.sparse) fakes over cl_context `context`."""
    cl = _CL(context, device)
    cupy = types.ModuleType("cupy")
    cupy.__version__ = "14.0.0-fake"
    cupy.int32, cupy.int64 = np.int32, np.int64
    cupy._cl = cl
    syncs = []
    cupy._syncs = syncs

    class Device:
        def __init__(self, id=0):
            self.id = id

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def synchronize(self):
            syncs.append("device")

    class UnownedMemory:
        def __init__(self, ptr, size, owner, device_id):
            self.ptr, self.size, self._owner, self.device_id = ptr, size, owner, device_id

    class MemoryPointer:
        def __init__(self, mem, offset):
            assert offset == 0
            self.mem, self.ptr = mem, mem.ptr
            self.device = Device(0)

    class _Owned:  # a buffer the fake allocated (CuPy's own memory)
        def __init__(self, host):
            self.ptr = cl.create(host)

        def __del__(self):
            cl.release(self.ptr)

    class ndarray:
        def __init__(self, shape, dtype, memptr=None, _host=None):
            self.dtype = np.dtype(dtype)
            self.shape = tuple(shape)
            if memptr is None:
                memptr = MemoryPointer(_Owned(_host), 0)
            self.data = memptr
            self.device = Device(0)

        size = property(lambda self: self.shape[0])
        nbytes = property(lambda self: self.size * self.dtype.itemsize)

        def __len__(self):
            return self.size

        def get(self):
            return cl.read(self.data.ptr, self.nbytes, self.dtype, self.size)

        def astype(self, dtype):
            return array(self.get().astype(dtype))

    def array(host):
        host = np.ascontiguousarray(host)
        return ndarray(host.shape, host.dtype, _host=host)

    def ascontiguousarray(a, dtype=None):
        return a if dtype is None or a.dtype == np.dtype(dtype) else a.astype(dtype)

    cupy.ndarray, cupy.array, cupy.ascontiguousarray = ndarray, array, ascontiguousarray
    cupy.empty = lambda n, dtype: array(np.empty(n, dtype))
    cupy.cuda = types.SimpleNamespace(
        Device=Device, UnownedMemory=UnownedMemory, MemoryPointer=MemoryPointer,
        get_current_stream=lambda: types.SimpleNamespace(
            synchronize=lambda: syncs.append("stream")),
        memory=types.SimpleNamespace(UnownedMemory=UnownedMemory))

    class csr_matrix:
        format = "csr"

        def __init__(self, arg, shape=None, copy=False):
            if sp.issparse(arg):  # from the host, as cupyx takes scipy matrices
                h = sp.csr_matrix(arg)
                arg = (array(h.data), array(h.indices.astype(np.int32)),
                       array(h.indptr.astype(np.int32)))
                shape = h.shape
            self.data, self.indices, self.indptr = arg
            self.shape = tuple(shape)

        __module__ = "cupyx.scipy.sparse._csr"
        dtype = property(lambda self: self.data.dtype)
        nnz = property(lambda self: self.data.size)

        def get(self):
            return sp.csr_matrix((self.data.get(), self.indices.get(), self.indptr.get()),
                                 shape=self.shape)

        def tocsr(self):
            return self

        def astype(self, dt):
            return csr_matrix(self.get().astype(dt))

        def copy(self):
            return csr_matrix(self.get())

        @property
        def has_canonical_format(self):
            return getattr(self, "_canonical", None) or self.get().has_canonical_format

        @has_canonical_format.setter
        def has_canonical_format(self, v):
            self._canonical = bool(v)

        def sum_duplicates(self):
            h = self.get()
            h.sum_duplicates()
            self.__init__(h)

    sparse = types.ModuleType("cupyx.scipy.sparse")
    sparse.csr_matrix = csr_matrix
    sparse.issparse = lambda x: isinstance(x, csr_matrix)
    cupyx = types.ModuleType("cupyx")
    scipy_ = types.ModuleType("cupyx.scipy")
    cupyx.scipy, scipy_.sparse = scipy_, sparse
    return cupy, cupyx, scipy_, sparse

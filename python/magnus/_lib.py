"""Loading libmagnus and the ctypes declarations of the part of include/magnus/magnus.h the
package uses. The structures mirror the C ones field for field (keep them in step with
magnus.h; python/tests/test_layout.py compares their fields with the header's, and
test_report_layout.py Report's with the layout the build prints of magnus_report's field list,
include/magnus/magnus_report_fields.h).

Where the library comes from, first found wins:
  1. MAGNUS_LIBRARY, a path to libmagnus.so (e.g. build/runtime/libmagnus.so of a build tree);
  2. the package's own copy, magnus/_lib/libmagnus.so, when the install bundled one
     (MAGNUS_BUNDLE_LIBRARY at `pip install` time: python/_backend/magnus_backend.py);
  3. the system loader: "libmagnus.so.0.1", then "libmagnus.so" (an installed magnus, found
     through LD_LIBRARY_PATH or the loader's cache).
"""
import ctypes
import os

from ._errors import LibraryNotFoundError, error_for

MAX_LEVELS = 8
FLOAT32, FLOAT64 = 1, 2
ALGORITHM_GMAGNUS, ALGORITHM_HASH, ALGORITHM_AUTO = 0, 1, 2


class CSR(ctypes.Structure):
    _fields_ = [
        ("magic", ctypes.c_uint64),
        ("rows", ctypes.c_int64),
        ("cols", ctypes.c_int64),
        ("nnz", ctypes.c_int64),
        ("type", ctypes.c_int),
        ("row_ptr", ctypes.POINTER(ctypes.c_int64)),
        ("col_idx", ctypes.POINTER(ctypes.c_int32)),
        ("values", ctypes.c_void_p),
    ]


class DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("backend", ctypes.c_int),
        ("index", ctypes.c_int),
        ("name", ctypes.c_char * 256),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 128),
        ("global_mem_bytes", ctypes.c_uint64),
        ("local_mem_bytes", ctypes.c_uint64),
        ("compute_units", ctypes.c_int),
        ("subgroup_sizes", ctypes.c_int * 8),
        ("num_subgroup_sizes", ctypes.c_int),
        ("max_work_group_size", ctypes.c_uint64),
        ("fp64", ctypes.c_int),
        ("atomic64", ctypes.c_int),
        ("is_cpu", ctypes.c_int),
        ("max_alloc_bytes", ctypes.c_uint64),
        ("wide_group_size", ctypes.c_uint64),
    ]


class ContextOptions(ctypes.Structure):
    _fields_ = [
        ("local_mem_bytes", ctypes.c_uint64),
        ("device_memory_limit", ctypes.c_uint64),
        ("hash_group_max", ctypes.c_uint64),
        ("dense_min_elements", ctypes.c_int64),
        ("multisplit_group", ctypes.c_uint64),
        ("build_progress", ctypes.c_void_p),
        ("build_progress_user", ctypes.c_void_p),
        ("chat_batch_bytes", ctypes.c_uint64),
    ]


PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double, ctypes.c_char_p)


class SpgemmOptions(ctypes.Structure):
    _fields_ = [
        ("algorithm", ctypes.c_int),
        ("progress", ctypes.c_void_p),
        ("progress_user", ctypes.c_void_p),
        ("alpha", ctypes.c_double),
    ]


class Report(ctypes.Structure):
    _fields_ = [
        ("algorithm", ctypes.c_int),
        ("algorithm_requested", ctypes.c_int),
        ("algorithm_reason", ctypes.c_char_p),
        ("auto_long_row_products", ctypes.c_int64),
        ("auto_long_share", ctypes.c_double),
        ("auto_numeric_row_nnz", ctypes.c_int64),
        ("auto_overflow_share", ctypes.c_double),
        ("auto_dense_rows", ctypes.c_int),
        ("time_choice_ms", ctypes.c_double),
        ("time_kernel_load_ms", ctypes.c_double),
        ("time_total_ms", ctypes.c_double),
        ("time_upload_ms", ctypes.c_double),
        ("time_download_ms", ctypes.c_double),
        ("time_setup_ms", ctypes.c_double),
        ("time_csr2csc_ms", ctypes.c_double),
        ("time_outer_product_ms", ctypes.c_double),
        ("time_histogram_ms", ctypes.c_double * MAX_LEVELS),
        ("time_multisplit_ms", ctypes.c_double * MAX_LEVELS),
        ("time_symbolic_ms", ctypes.c_double),
        ("time_numeric_ms", ctypes.c_double),
        ("time_alloc_ms", ctypes.c_double),
        ("local_mem_bytes", ctypes.c_uint64),
        ("tau", ctypes.c_int64),
        ("heavy_row_products", ctypes.c_int64),
        ("heavy_row_rule", ctypes.c_char_p),
        ("light_rows_global", ctypes.c_int64),
        ("chunks_required", ctypes.c_int64),
        ("levels", ctypes.c_int),
        ("chunks_per_level", ctypes.c_int64 * MAX_LEVELS),
        ("chunk_width", ctypes.c_int64),
        ("dense_min_elements", ctypes.c_int64),
        ("chunks_dense", ctypes.c_int64),
        ("chunks_hash", ctypes.c_int64),
        ("rows_total", ctypes.c_int64),
        ("rows_heavy", ctypes.c_int64),
        ("rows_dense", ctypes.c_int64),
        ("dense_row_columns", ctypes.c_int64),
        ("products_total", ctypes.c_int64),
        ("products_heavy", ctypes.c_int64),
        ("nnz_c", ctypes.c_int64),
        ("chat_bytes", ctypes.c_uint64),
        ("peak_device_bytes", ctypes.c_uint64),
        ("reserved_device_bytes", ctypes.c_uint64),
        ("chat_gap_bytes", ctypes.c_uint64),
        ("batches", ctypes.c_int64),
        ("time_batch_ms", ctypes.c_double),
        ("dense_rows_local_bytes", ctypes.c_uint64),
        ("dense_stripes", ctypes.c_int64),
    ]


class PlanInfo(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.c_int64),
        ("cols", ctypes.c_int64),
        ("nnz", ctypes.c_int64),
        ("type", ctypes.c_int),
        ("algorithm", ctypes.c_int),
        ("alpha", ctypes.c_double),
        ("device_bytes", ctypes.c_uint64),
        ("symbolic", Report),
        ("positions", ctypes.c_uint64),
    ]


class NativeHandles(ctypes.Structure):
    _fields_ = [
        ("backend", ctypes.c_int),
        ("context", ctypes.c_void_p),
        ("device", ctypes.c_void_p),
    ]


class DeviceCSRBuffers(ctypes.Structure):
    _fields_ = [
        ("backend", ctypes.c_int),
        ("rows", ctypes.c_int64),
        ("cols", ctypes.c_int64),
        ("nnz", ctypes.c_int64),
        ("type", ctypes.c_int),
        ("row_ptr", ctypes.c_void_p),
        ("col_idx", ctypes.c_void_p),
        ("values", ctypes.c_void_p),
    ]


class SpmvOptions(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_int),
        ("sellp_slice", ctypes.c_int64),
        ("sellp_stride", ctypes.c_int64),
        ("hybrid_width", ctypes.c_int64),
    ]


class SpmvReport(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_int),
        ("conversion_ms", ctypes.c_double),
        ("product_ms", ctypes.c_double),
        ("floor_bytes", ctypes.c_uint64),
        ("format_bytes", ctypes.c_uint64),
        ("lanes", ctypes.c_int64),
        ("ell_width", ctypes.c_int64),
        ("coo_entries", ctypes.c_int64),
        ("groups", ctypes.c_int64),
        ("hot_columns", ctypes.c_int64),
        ("hot_share", ctypes.c_double),
        ("format_reason", ctypes.c_char_p),
        ("long_rows", ctypes.c_int64),
        ("long_row_threshold", ctypes.c_int64),
    ]


SPMV_FORMATS = {"auto": 0, "csr": 1, "csr-balanced": 2, "coo": 3, "hybrid": 4, "sellp": 5}

BACKEND_CUDA, BACKEND_LEVEL0, BACKEND_OPENCL = 1, 2, 3

P = ctypes.c_void_p  # opaque handles: magnus_context, magnus_device_csr, magnus_spgemm_plan
PP = ctypes.POINTER(ctypes.c_void_p)
CSRP = ctypes.POINTER(CSR)
CSRPP = ctypes.POINTER(CSRP)
st = ctypes.c_int  # magnus_status

_SIGNATURES = {
    "magnus_version": (ctypes.c_char_p, []),
    "magnus_status_string": (ctypes.c_char_p, [ctypes.c_int]),
    "magnus_last_error": (ctypes.c_char_p, []),
    "magnus_csr_new": (st, [CSRPP, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int]),
    "magnus_csr_free": (st, [CSRPP]),
    "magnus_device_probe": (st, [ctypes.POINTER(DeviceInfo), ctypes.c_size_t,
                                 ctypes.POINTER(ctypes.c_size_t)]),
    "magnus_probe_diagnostics": (ctypes.c_char_p, []),
    "magnus_backend_name": (ctypes.c_char_p, [ctypes.c_int]),
    "magnus_device_select": (st, [ctypes.POINTER(DeviceInfo)]),
    "magnus_device_find": (st, [ctypes.POINTER(DeviceInfo), ctypes.c_char_p]),
    "magnus_context_options_init": (st, [ctypes.POINTER(ContextOptions)]),
    "magnus_context_create": (st, [PP, ctypes.POINTER(DeviceInfo),
                                   ctypes.POINTER(ContextOptions)]),
    "magnus_context_free": (st, [PP]),
    "magnus_context_device": (st, [ctypes.POINTER(DeviceInfo), P]),
    "magnus_spgemm_options_init": (st, [ctypes.POINTER(SpgemmOptions)]),
    "magnus_spgemm": (st, [CSRPP, P, CSRP, CSRP, ctypes.POINTER(SpgemmOptions),
                           ctypes.POINTER(Report)]),
    "magnus_device_csr_upload": (st, [PP, P, CSRP]),
    "magnus_device_csr_download": (st, [CSRPP, P]),
    "magnus_device_csr_free": (st, [PP]),
    "magnus_device_csr_wrap": (st, [PP, P, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                    ctypes.c_int, P, P, P]),
    "magnus_device_csr_native": (st, [ctypes.POINTER(DeviceCSRBuffers), P]),
    "magnus_context_native": (st, [ctypes.POINTER(NativeHandles), P]),
    "magnus_spgemm_device": (st, [PP, P, P, P, ctypes.POINTER(SpgemmOptions),
                                  ctypes.POINTER(Report)]),
    "magnus_spgemm_plan_create": (st, [PP, P, P, P, ctypes.POINTER(SpgemmOptions)]),
    "magnus_spgemm_plan_execute": (st, [PP, P, P, P, ctypes.POINTER(Report)]),
    "magnus_spgemm_plan_info_get": (st, [ctypes.POINTER(PlanInfo), P]),
    "magnus_spgemm_plan_free": (st, [PP]),
    "magnus_spmv_options_init": (st, [ctypes.POINTER(SpmvOptions)]),
    "magnus_spmv_format_name": (ctypes.c_char_p, [ctypes.c_int]),
    "magnus_spmv_host": (st, [P, P, ctypes.c_double, CSRP, P, ctypes.c_double,
                              ctypes.POINTER(SpmvOptions), ctypes.POINTER(SpmvReport)]),
}


def _candidates():
    env = os.environ.get("MAGNUS_LIBRARY")
    if env:
        return [("MAGNUS_LIBRARY", env)]
    out = []
    own = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib", "libmagnus.so")
    if os.path.isfile(own):
        out.append(("the package's copy", own))
    out += [("the system loader", "libmagnus.so.0.1"), ("the system loader", "libmagnus.so")]
    return out


def _load():
    tried = []
    for where, path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{where} ({path}): {e}")
            continue
        missing = [n for n in _SIGNATURES if not hasattr(lib, n)]
        if missing:
            tried.append(f"{where} ({path}): lacks {', '.join(missing)} (an older libmagnus?)")
            if where == "MAGNUS_LIBRARY":
                break
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        return lib, path
    raise LibraryNotFoundError("cannot load libmagnus: " + "; ".join(tried) +
                               " (set MAGNUS_LIBRARY to the path of libmagnus.so)")


_lib = None
_path = None


def lib():
    """The loaded library (loaded on first use)."""
    global _lib, _path
    if _lib is None:
        _lib, _path = _load()
    return _lib


def library_path():
    lib()
    return _path


def check(status):
    """Raises the Error for a failing status, with magnus's detail message."""
    if status != 0:
        L = lib()
        msg = (L.magnus_last_error() or b"").decode("utf-8", "replace")
        text = (L.magnus_status_string(status) or b"").decode("utf-8", "replace")
        raise error_for(status, msg or text, text)

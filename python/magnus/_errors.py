"""magnus.Error and its subclasses: one per kind of failure, carrying magnus's status name,
its code and magnus's own detail message (magnus_last_error)."""

# magnus_status (include/magnus/magnus.h): code -> name
STATUS_NAMES = {
    0: "MAGNUS_SUCCESS",
    -1: "MAGNUS_ERROR_NULL_POINTER",
    -2: "MAGNUS_ERROR_INVALID_HANDLE",
    -3: "MAGNUS_ERROR_INVALID_ARGUMENT",
    -4: "MAGNUS_ERROR_DIMENSION_MISMATCH",
    -5: "MAGNUS_ERROR_UNSUPPORTED_TYPE",
    -6: "MAGNUS_ERROR_SIZE_OVERFLOW",
    -7: "MAGNUS_ERROR_CANCELLED",
    -10: "MAGNUS_ERROR_ROWPTR_INVALID",
    -11: "MAGNUS_ERROR_ROWPTR_NOT_MONOTONE",
    -12: "MAGNUS_ERROR_COLUMN_OUT_OF_RANGE",
    -13: "MAGNUS_ERROR_COLUMNS_UNSORTED",
    -14: "MAGNUS_ERROR_DUPLICATE_COLUMN",
    -20: "MAGNUS_ERROR_FILE_OPEN",
    -21: "MAGNUS_ERROR_FILE_READ",
    -22: "MAGNUS_ERROR_FILE_WRITE",
    -23: "MAGNUS_ERROR_MM_BANNER",
    -24: "MAGNUS_ERROR_MM_UNSUPPORTED",
    -25: "MAGNUS_ERROR_MM_SIZE_LINE",
    -26: "MAGNUS_ERROR_MM_ENTRY_COUNT",
    -27: "MAGNUS_ERROR_MM_INDEX_RANGE",
    -28: "MAGNUS_ERROR_MM_NUMBER",
    -29: "MAGNUS_ERROR_MM_TRUNCATED",
    -30: "MAGNUS_ERROR_OUT_OF_HOST_MEMORY",
    -31: "MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY",
    -32: "MAGNUS_ERROR_PROBLEM_TOO_LARGE",
    -40: "MAGNUS_ERROR_NO_DEVICE",
    -41: "MAGNUS_ERROR_BACKEND_UNAVAILABLE",
    -42: "MAGNUS_ERROR_DEVICE",
    -43: "MAGNUS_ERROR_KERNEL_BUILD",
    -44: "MAGNUS_ERROR_KERNEL_LAUNCH",
    -45: "MAGNUS_ERROR_FEATURE_UNSUPPORTED",
    -50: "MAGNUS_ERROR_MISMATCH",
    -99: "MAGNUS_ERROR_INTERNAL",
}


class Error(Exception):
    """A magnus failure. `status` is the status name ("MAGNUS_ERROR_DIMENSION_MISMATCH"),
    `code` its value, `message` magnus's detail message."""

    def __init__(self, code, message, status_text=""):
        self.code = int(code)
        self.status = STATUS_NAMES.get(self.code, f"MAGNUS_STATUS_{self.code}")
        self.message = message
        self.status_text = status_text
        text = f"{self.status}: {message}" if message else self.status
        super().__init__(text)


class LibraryNotFoundError(Error, OSError):
    """libmagnus could not be loaded (MAGNUS_LIBRARY, the package's copy, the system loader)."""

    def __init__(self, message):
        super().__init__(-41, message)


class InvalidArgumentError(Error, ValueError):
    """An argument out of range (MAGNUS_ERROR_INVALID_ARGUMENT, NULL_POINTER, INVALID_HANDLE,
    SIZE_OVERFLOW), or an invalid CSR (MAGNUS_ERROR_ROWPTR_*, COLUMN_*, DUPLICATE_COLUMN)."""


class DimensionMismatchError(InvalidArgumentError):
    """A.shape[1] != B.shape[0], or operands of another shape than a plan's."""


class UnsupportedTypeError(Error, TypeError):
    """A value type magnus does not multiply (MAGNUS_ERROR_UNSUPPORTED_TYPE), or one the device
    lacks (MAGNUS_ERROR_FEATURE_UNSUPPORTED: float64 without fp64)."""


class OutOfMemoryError(Error, MemoryError):
    """Host or device memory ran out, or the problem is too large for the device."""


class NoDeviceError(Error):
    """No usable device, or none matches the device spec (MAGNUS_ERROR_NO_DEVICE,
    MAGNUS_ERROR_BACKEND_UNAVAILABLE)."""


class DeviceError(Error):
    """A vendor call, a kernel build or a launch failed."""


_CLASSES = {
    -1: InvalidArgumentError, -2: InvalidArgumentError, -3: InvalidArgumentError,
    -4: DimensionMismatchError, -5: UnsupportedTypeError, -6: InvalidArgumentError,
    -10: InvalidArgumentError, -11: InvalidArgumentError, -12: InvalidArgumentError,
    -13: InvalidArgumentError, -14: InvalidArgumentError,
    -30: OutOfMemoryError, -31: OutOfMemoryError, -32: OutOfMemoryError,
    -40: NoDeviceError, -41: NoDeviceError,
    -42: DeviceError, -43: DeviceError, -44: DeviceError, -45: UnsupportedTypeError,
}


def error_for(code, message, status_text=""):
    """The Error subclass instance for a failing status."""
    return _CLASSES.get(int(code), Error)(code, message, status_text)


def check_product_shapes(A, B):
    """A and B 2-D with A.cols == B.rows, else the errors the C API gives for it (host and CuPy
    operands alike)."""
    if len(A.shape) != 2 or len(B.shape) != 2:
        raise InvalidArgumentError(-3, "A and B must be 2-D")
    if A.shape[1] != B.shape[0]:
        raise DimensionMismatchError(-4, f"A is {A.shape[0]} x {A.shape[1]} but B is "
                                     f"{B.shape[0]} x {B.shape[1]} (A.cols must equal B.rows)")

"""Bad shapes, dtypes, arguments and device specs raise magnus.Error subclasses carrying
the status name and magnus's message."""
import numpy as np
import pytest
import scipy.sparse as sp

import magnus
from conftest import rand


def test_dimension_mismatch(ctx):
    A, B = rand(10, 8, 0.3, 1, np.float32), rand(9, 5, 0.3, 2, np.float32)
    with pytest.raises(magnus.DimensionMismatchError) as e:
        ctx.spgemm(A, B)
    assert e.value.status == "MAGNUS_ERROR_DIMENSION_MISMATCH"
    assert isinstance(e.value, ValueError) and isinstance(e.value, magnus.Error)
    assert "10 x 8" in str(e.value)


def test_bad_dtypes(ctx):
    A = rand(10, 10, 0.3, 3, np.float32)
    with pytest.raises(magnus.UnsupportedTypeError) as e:
        ctx.spgemm(A.astype(np.complex128), A)
    assert e.value.status == "MAGNUS_ERROR_UNSUPPORTED_TYPE" and isinstance(e.value, TypeError)
    with pytest.raises(magnus.UnsupportedTypeError):
        ctx.spgemm(A, A, dtype=np.int32)
    with pytest.raises(TypeError):
        ctx.spgemm(A.toarray(), A)  # dense input: not a sparse matrix


def test_bad_arguments(ctx):
    A = rand(10, 10, 0.3, 4, np.float32)
    with pytest.raises(magnus.InvalidArgumentError) as e:
        ctx.spgemm(A, A, alpha=float("nan"))
    assert e.value.status == "MAGNUS_ERROR_INVALID_ARGUMENT"
    assert "alpha" in e.value.message  # magnus's own message
    with pytest.raises(magnus.InvalidArgumentError):
        ctx.spgemm(A, A, algorithm="bogus")
    with pytest.raises(magnus.InvalidArgumentError):
        ctx.spgemm(A, A, alpha="two")
    with pytest.raises(magnus.InvalidArgumentError):
        magnus.spgemm(A, A, device="opencl", context=ctx)


def test_bad_device_specs():
    try:
        magnus.devices()
    except magnus.LibraryNotFoundError as e:
        pytest.skip(str(e))
    with pytest.raises(magnus.Error) as e:
        magnus.Context(device="gpu:0")  # a word before ':' must be a backend
    assert e.value.status == "MAGNUS_ERROR_INVALID_ARGUMENT"
    with pytest.raises(magnus.NoDeviceError) as e:
        magnus.Context(device="opencl:no-such-device-name")
    assert e.value.status == "MAGNUS_ERROR_NO_DEVICE"
    with pytest.raises(TypeError):
        magnus.Context(device=3.5)


def test_closed_context():
    try:
        if not magnus.devices():
            pytest.skip("no device")
    except magnus.LibraryNotFoundError as e:
        pytest.skip(str(e))
    c = magnus.Context()
    c.close()
    c.close()  # twice is fine
    A = sp.csr_array(np.eye(3, dtype=np.float32))
    with pytest.raises(magnus.InvalidArgumentError):
        c.spgemm(A, A)


def test_cupy_inputs_refused(ctx):
    """A CuPy matrix (recognised by its module) beside a SciPy one raises TypeError, not a
    silent copy between host and device (test_cupy_logic.py has the rest)."""
    Fake = type("csr_matrix", (), {"__module__": "cupyx.scipy.sparse._csr"})
    A = sp.csr_array(np.eye(3, dtype=np.float32))
    with pytest.raises(TypeError, match="CuPy"):
        ctx.spgemm(Fake(), A)

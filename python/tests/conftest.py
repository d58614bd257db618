"""Fixtures of the magnus Python tests: one context for the session on the device magnus
picks (MAGNUS_DEVICE, else the best device: PoCL's CPU device on a machine without a GPU).
Every test that needs a device is skipped, with the reason, when libmagnus does not load or
no device is found; failed instead where CI requires a device for the entry's backend
(MAGNUS_REQUIRE_DEVICE lists MAGNUS_TEST_ENTRY_BACKEND: tests/util/require_test_util.h)."""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import magnus


def _skip_or_fail(reason):
    required = os.environ.get("MAGNUS_REQUIRE_DEVICE", "").replace(",", " ").split()
    entry = os.environ.get("MAGNUS_TEST_ENTRY_BACKEND") or os.environ.get("MAGNUS_BACKENDS")
    if entry and entry in required:
        pytest.fail(f"{reason}: MAGNUS_REQUIRE_DEVICE requires a device for {entry}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def ctx():
    try:
        devs = magnus.devices()
    except magnus.LibraryNotFoundError as e:
        _skip_or_fail(f"libmagnus not found: {e}")
    if not devs:
        _skip_or_fail("no magnus device (magnus probe says why)")
    c = magnus.Context()
    yield c
    c.close()


@pytest.fixture
def fp64(ctx):
    if not ctx.device.fp64:
        pytest.skip(f"{ctx.device.name} has no fp64")


def rand(rows, cols, density, seed, dtype=np.float64, array=True):
    """A random CSR with values in [0.5, 1.5) (no cancellation: SciPy's product drops the
    zeros it makes, magnus keeps them)."""
    rng = np.random.default_rng(seed)
    M = sp.random(rows, cols, density=density, format="csr", random_state=rng,
                  data_rvs=lambda n: rng.uniform(0.5, 1.5, n), dtype=np.float64)
    M = M.astype(dtype)
    return sp.csr_array(M) if array else M


def expect_product(C, expected, dtype):
    """C against SciPy's product: shape, the same pattern, values within the type's
    tolerance."""
    expected = sp.csr_matrix(expected)
    assert C.shape == expected.shape
    assert C.dtype == dtype
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    diff = abs(sp.csr_matrix(C, dtype=np.float64) - expected.astype(np.float64))
    scale = abs(expected).max() if expected.nnz else 1.0
    assert (diff.max() if diff.nnz else 0.0) <= rtol * max(scale, 1e-300) * 10
    assert C.nnz == expected.nnz


EMPTY_SHAPES = [(0, 5, 7), (5, 0, 7), (5, 7, 0), (0, 0, 0)]


def expect_empty_product(multiply, csr, shape):
    """A product with a zero dimension (SHAPE is m, k, n) through MULTIPLY(A, B), A and B made
    empty by the constructor CSR: an m x n result with no entries, in A's value type. Returns
    it for the caller's own checks."""
    m, k, n = shape
    A, B = csr((m, k), dtype=np.float32), csr((k, n), dtype=np.float32)
    C = multiply(A, B)
    assert C.shape == (m, n) and C.nnz == 0 and C.dtype == np.float32
    return C


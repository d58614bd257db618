"""magnus/_lib.py's Report against magnus_report as the C compiler lays it out: the build
writes the layout of the field list (include/magnus/magnus_report_fields.h) to
report_layout.json (tests/python/report_layout.c), which MAGNUS_REPORT_LAYOUT names (ctest
and scripts/python_check.sh set it). The same names in the same order, each of the ctypes type
its kind says, at the same offset and size, and the same sizeof: a field added to the list but
not here fails, instead of the library writing past a Python buffer. Skipped without a build's
layout (an installed package on its own)."""
import ctypes
import json
import os

import pytest

from magnus import _lib as L

LAYOUT = os.environ.get("MAGNUS_REPORT_LAYOUT", "")

# each kind of the list (magnus_report_fields.h) as its ctypes type
KINDS = {
    "ALGORITHM": ctypes.c_int,  # an enum of small values: int-sized
    "TEXT": ctypes.c_char_p,
    "INT": ctypes.c_int,
    "I64": ctypes.c_int64,
    "U64": ctypes.c_uint64,
    "F64": ctypes.c_double,
    "F64_LEVELS": ctypes.c_double * L.MAX_LEVELS,
    "I64_LEVELS": ctypes.c_int64 * L.MAX_LEVELS,
}


@pytest.fixture(scope="module")
def layout():
    if not LAYOUT:
        pytest.skip("MAGNUS_REPORT_LAYOUT is not set (no build's report_layout.json)")
    with open(LAYOUT, encoding="utf-8") as f:  # set but missing: an error, not a skip
        return json.load(f)


def test_names_in_order(layout):
    assert [f["name"] for f in layout["fields"]] == [n for n, _ in L.Report._fields_]


def test_max_levels(layout):
    assert layout["max_levels"] == L.MAX_LEVELS


def test_types_offsets_sizes(layout):
    mirror = dict(L.Report._fields_)
    for f in layout["fields"]:
        name = f["name"]
        assert f["kind"] in KINDS, f"{name}: kind {f['kind']} has no ctypes type here"
        expected = KINDS[f["kind"]]
        got = mirror.get(name)
        assert got is not None, f"{name} is missing from _lib.Report"
        if issubclass(expected, ctypes.Array):
            assert issubclass(got, ctypes.Array) and got._type_ is expected._type_ and \
                got._length_ == expected._length_, f"{name}: {got} is not {expected}"
        else:
            assert got is expected, f"{name}: {got.__name__}, expected {expected.__name__}"
        assert getattr(L.Report, name).offset == f["offset"], name
        assert getattr(L.Report, name).size == f["size"], name
    assert ctypes.sizeof(L.Report) == layout["sizeof"]


def test_every_field_described(layout):
    """Each field has a merge rule, a shown rule and a meaning (what the outputs rely on)."""
    for f in layout["fields"]:
        assert f["merge"] in ("SUM", "MAX", "FIRST", "LAST", "PRODUCT"), f["name"]
        assert f["shown"] in ("ALWAYS", "AUTO", "GMAGNUS"), f["name"]
        assert f["meaning"].strip(), f["name"]

"""The ctypes mirrors in magnus/_lib.py against include/magnus/ (magnus.h and the parts it
includes): the same fields in the same order (a field added in C but not here would make the
library write past a Python buffer). Needs the source tree's headers (skipped without them); the
report's offsets are also checked through the library in test_spgemm.py::test_report.
magnus_report is generated from its field list (magnus_report_fields.h): test_report_layout.py
checks it against the layout the build prints, offsets and sizes included."""
import os
import re

import pytest

from magnus import _lib as L

HEADER_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "include", "magnus")
HEADER = os.path.join(HEADER_DIR, "magnus.h")

MIRRORS = {
    "magnus_csr_s": L.CSR,
    "magnus_device_info": L.DeviceInfo,
    "magnus_context_options": L.ContextOptions,
    "magnus_spgemm_options": L.SpgemmOptions,
    "magnus_spgemm_plan_info": L.PlanInfo,
    "magnus_native_handles": L.NativeHandles,
    "magnus_device_csr_buffers": L.DeviceCSRBuffers,
    "magnus_spmv_options": L.SpmvOptions,
    "magnus_spmv_report": L.SpmvReport,
}


def c_fields(text, name):
    m = re.search(r"typedef struct " + re.escape(name) + r"\s*\{(.*?)\}\s*" + re.escape(name),
                  text, re.S)
    assert m, f"struct {name} not found in include/magnus/"
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    names = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        # "type a, b[8]" -> a, b ; "magnus_progress_fn progress" -> progress
        first, *rest = decl.split(",")
        parts = [first.split()[-1]] + [r.strip() for r in rest]
        names += [re.sub(r"\[.*\]", "", p).lstrip("*") for p in parts]
    return names


@pytest.mark.skipif(not os.path.exists(HEADER), reason="magnus.h is not beside the tests")
@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_fields_match_header(name):
    # magnus.h includes its parts by topic (magnus_core.h, magnus_spmv.h, ...): read them all
    text = "".join(open(os.path.join(HEADER_DIR, f), encoding="utf-8").read()
                   for f in sorted(os.listdir(HEADER_DIR)) if f.endswith(".h"))
    assert c_fields(text, name) == [f for f, _ in MIRRORS[name]._fields_]

#!/bin/sh
# `magnus probe`: the text and JSON forms list the same devices, JSON parses, every backend has
# a diagnostics line, and a broken OpenCL library is reported (naming its path) without
# crashing. The exit status is 0 when a device is selected, else 1 (after the listing).
# usage: test_probe_cli.sh path/to/magnus
set -eu
magnus="$1"
rc=0
out=$("$magnus" probe) || rc=$?
echo "$out"
echo "$out" | grep -q '^backends:$'
json_rc=0
"$magnus" probe --json > probe.json || json_rc=$?
[ "$rc" -eq "$json_rc" ] || { echo "probe exited $rc, probe --json $json_rc"; exit 1; }
python3 - probe.json "$rc" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
want = 0 if doc["selected"] else 1
assert int(sys.argv[2]) == want, ("exit status", sys.argv[2], "selected", doc["selected"])
PY
python3 - probe.json "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = sys.argv[2]
assert doc["device_count"] == len(doc["devices"]), doc
assert [l.split(":")[0] for l in doc["diagnostics"]][:3] != [], doc
for name in ("cuda", "level0", "opencl"):
    assert any(l.startswith(name + ":") for l in doc["diagnostics"]), (name, doc["diagnostics"])
for d in doc["devices"]:
    assert d["id"] in text, d["id"]
    assert "%d KiB" % d["local_mem_kib"] in text
    for key in ("name", "vendor", "driver_version", "global_mem_bytes", "max_alloc_bytes",
                "local_mem_bytes", "compute_units", "subgroup_sizes", "max_work_group_size",
                "fp64", "atomic64", "is_cpu", "selected"):
        assert key in d, key
if doc["devices"]:
    assert sum(d["selected"] for d in doc["devices"]) == 1
    assert doc["selected"] in [d["id"] for d in doc["devices"]]
print("probe --json: %d device(s)" % doc["device_count"])
PY
rc=0
out=$(MAGNUS_BACKENDS=opencl MAGNUS_OPENCL_LIBRARY=/nonexistent/libOpenCL.so "$magnus" probe) || rc=$?
echo "$out"
echo "$out" | grep -q 'opencl: unavailable: .*/nonexistent/libOpenCL.so'
echo "$out" | grep -q '^no devices found$'
[ "$rc" -eq 1 ] || { echo "probe without a device exited $rc, expected 1"; exit 1; }
"$magnus" probe extra 2>/dev/null && { echo "probe accepted an argument"; exit 1; }
echo "test_probe_cli: ok"

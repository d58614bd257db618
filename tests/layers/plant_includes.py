#!/usr/bin/env python3
"""layers_includes can fail (ctest layers_includes_planted): copies of real sources, each with
one bad #include planted at the top, must be rejected by check_includes.py for the right
reason, and an unchanged copy must pass (so a rejection is the planted line, not the copy).

Usage: plant_includes.py SOURCE_DIR BUILD_DIR
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_includes  # noqa: E402


def first(build, folder, suffix):
    """The first file of FOLDER (relative to the source tree) whose name ends with SUFFIX."""
    names = sorted(n for n in os.listdir(os.path.join(build.source_dir, folder))
                   if n.endswith(suffix))
    if not names:
        raise SystemExit(f"plant_includes: {folder} has no {suffix} file to plant into")
    return names[0]


def main():
    build = check_includes.Build(sys.argv[1], sys.argv[2])
    gmagnus_h = first(build, "runtime/spgemm/gmagnus", ".h")
    backend_h = "backend.h"
    host_h = first(build, "runtime/host", ".h")
    # (the layer whose source gets the line, the planted line, what the rejection must say, why)
    cases = [
        ("runtime/primitives", None, None, "an unchanged copy passes"),
        ("runtime/primitives", f'#include "../backend/{backend_h}"', "reached through '..'",
         "a relative reach into a layer primitives does not see"),
        ("runtime/primitives", f'#include "../backend/{backend_h}"', "does not see",
         "the header reached lies outside primitives' folders"),
        ("runtime/spgemm/gmagnus", '#include "../algorithm/spgemm_algorithm.h"',
         'reaches with ".."', "a relative reach, even into a folder the layer sees"),
        ("runtime/spgemm/hash", f'#include "../gmagnus/{gmagnus_h}"', "does not see",
         "one algorithm reaching another's headers"),
        ("runtime/spgemm/hash", '#include "dense/dense_rows.h"', "does not see",
         "an algorithm reaching the dense rows beneath the hash accumulator's interface"),
        ("runtime/accumulate/dense", '#include "../hash_private.h"', "does not see",
         "the dense rows reaching the hash accumulator that uses them"),
        ("runtime/spgemm/gmagnus", '#include "../spgemm_dispatch.h"', "does not see",
         "an algorithm reaching the dispatcher above it"),
        ("runtime/spgemm", f'#include "gmagnus/{gmagnus_h}"', "does not see",
         "a sub-folder reach into an algorithm the entry points do not see"),
        ("runtime/spgemm", '#include "algorithm/spgemm_algorithm.h"', "names a sub-folder",
         "a sub-folder reach, even into a layer the dispatcher sees"),
        ("backends/opencl", f'#include "../../runtime/host/{host_h}"', "does not see",
         "a backend reaching the host CSR code it does not see"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for n, (folder, line, expected, why) in enumerate(cases):
            source = os.path.join(build.source_dir, folder, first(build, folder, ".c"))
            copy = os.path.join(work, f"{n}_{os.path.basename(source)}")
            with open(source) as f, open(copy, "w") as out:
                out.write((line + "\n" if line else "") + f.read())
            found = check_includes.check_source(build, os.path.realpath(source), copy)
            if line is None:
                ok = found == []
            else:
                ok = any(expected in message for message in found)
            print(f"{'ok' if ok else 'FAIL'}: {folder} + {line or 'nothing'}: {why}")
            if not ok:
                failures += 1
                print("    expected " + (f"a rejection saying '{expected}'" if line else
                                         "no rejection") + "; got:")
                print("".join(f"    {m}\n" for m in found) or "    nothing")
    print(f"layers_includes_planted: {failures} case(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

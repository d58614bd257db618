#!/usr/bin/env python3
"""Issue 16's two Python timings, on one CUDA device (the H200), in one process:

  1. magnus.spgemm with SciPy inputs (conversion to CSR, upload, multiply, download, SciPy
     result) against the C CLI's end-to-end time of the same multiply (`magnus multiply FILE
     --json`: compute_seconds = upload + multiply + download), target within 1.2x;
  2. the CuPy path (cupyx.scipy.sparse in and out, no host round trip) against
     magnus_spgemm_device's own time for the same product (the report's time_total_ms of the
     call the CuPy path makes), target within 1.05x.

usage: MAGNUS_LIBRARY=build-gpu/runtime/libmagnus.so PYTHONPATH=python \\
           python3 bench/python_timing.py MATRIX.mtx[.gz] [--cli build-gpu/tools/magnus] [--runs N]
           [--paths scipy,cupy]
Prints one JSON object (medians in ms). A is squared in float32 (the CLI's type for pattern
files; --dtype float64 for both). Beside each total, where it goes: the library's own upload,
multiply and download (its report) on both sides, and the Python layer's own times before
and after the library's call (the report's time_python_in_ms / time_python_out_ms); --profile
FILE writes a cProfile table of the CuPy calls (cumulative time) there.
"""
import argparse
import cProfile
import io
import json
import pstats
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse as sp

import magnus


# the Python layer's own clock around the library's call (magnus.spgemm's report)
PYTHON_TIMES = ("time_python_in_ms", "time_python_out_ms")
# the CuPy path's parts of time_python_in_ms (magnus._cupy.spgemm)
CUPY_TIMES = PYTHON_TIMES + ("time_python_convert_ms", "time_python_wrap_ms")


def median_ms(fn, runs):
    """Median over `runs` calls of fn, each timed from its start until it returns: the result
    is freed after the clock stops (as the CLI's compute_seconds leaves out freeing C)."""
    fn()  # warm-up (kernels built, pools filled)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1e3)
        del result
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("matrix")
    ap.add_argument("--cli", default="build-gpu/tools/magnus")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--profile", help="write a cProfile table of the CuPy calls here")
    ap.add_argument("--paths", default="scipy,cupy",
                    help="which timings: scipy (against the CLI), cupy, or both (the default)")
    args = ap.parse_args()
    dt = np.dtype(args.dtype)
    A = sp.csr_array(scipy.io.mmread(args.matrix), dtype=dt)
    out = {"matrix": args.matrix, "dtype": args.dtype, "rows": A.shape[0], "nnz": int(A.nnz),
           "runs": args.runs}
    ctx = magnus.Context(args.device)
    out["device"] = ctx.device.name

    paths = set(args.paths.split(","))
    if "scipy" in paths:
        scipy_timing(args, A, ctx, dt, out)
    if "cupy" in paths:
        cupy_timing(args, A, ctx, out)
    ctx.close()
    json.dump(out, sys.stdout, indent=1)
    print()


def scipy_timing(args, A, ctx, dt, out):
    """1. SciPy in and out against the CLI's end to end."""
    scipy_reports = []

    def scipy_call():
        C, r = ctx.spgemm(A, A, dtype=dt, return_report=True)
        scipy_reports.append(r)
        return C

    out["scipy_spgemm_ms"] = median_ms(scipy_call, args.runs)
    rep = scipy_reports[-1]
    out["products"] = int(rep["products_total"])
    phases = ("time_upload_ms", "time_total_ms", "time_download_ms")
    for k in phases:  # the library's share of the SciPy call (magnus_spgemm's own clock)
        out["scipy_library_" + k] = statistics.median(r[k] for r in scipy_reports[1:])
    for k in PYTHON_TIMES:  # the Python layer's, around that call
        out["scipy_" + k] = statistics.median(r[k] for r in scipy_reports[1:])
    cli, cli_reports = [], []
    for _ in range(3):
        r = subprocess.run([args.cli, "multiply", args.matrix, "--device", args.device, "--type",
                            "f32" if dt == np.float32 else "f64", "--json"],
                           capture_output=True, text=True, check=True)
        j = json.loads(r.stdout)
        cli.append(j["compute_seconds"] * 1e3)
        cli_reports.append(j["report"])
    out["cli_end_to_end_ms"] = statistics.median(cli)
    for k in phases:
        out["cli_library_" + k] = statistics.median(r[k] for r in cli_reports)
    out["scipy_over_cli"] = out["scipy_spgemm_ms"] / out["cli_end_to_end_ms"]


def cupy_timing(args, A, ctx, out):
    """2. CuPy in and out against magnus_spgemm_device."""
    try:
        import cupy
        import cupyx.scipy.sparse as csp
    except ImportError as e:
        out["cupy"] = f"not available: {e}"
    else:
        Ad = csp.csr_matrix(sp.csr_matrix(A))
        reports = []

        def cupy_call():
            C, r = ctx.spgemm(Ad, Ad, return_report=True)
            cupy.cuda.get_current_stream().synchronize()
            reports.append(r)
            return C

        out["cupy_spgemm_ms"] = median_ms(cupy_call, args.runs)
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(args.runs):
                cupy_call()
            prof.disable()
            text = io.StringIO()
            pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
            with open(args.profile, "w") as f:
                f.write(f"{args.runs} CuPy calls\n" + text.getvalue())
        out["spgemm_device_ms"] = statistics.median(r["time_total_ms"] for r in reports[1:])
        for k in CUPY_TIMES:
            out["cupy_" + k] = statistics.median(r[k] for r in reports[1:])
        out["cupy_over_device"] = out["cupy_spgemm_ms"] / out["spgemm_device_ms"]

        # the call as a user makes it, without asking for the report (its conversion to a
        # dict is left out); the device time is the one above, of the same calls with reports
        def cupy_plain():
            C = ctx.spgemm(Ad, Ad)
            cupy.cuda.get_current_stream().synchronize()
            return C

        out["cupy_plain_ms"] = median_ms(cupy_plain, args.runs)
        out["cupy_plain_over_device"] = out["cupy_plain_ms"] / out["spgemm_device_ms"]


if __name__ == "__main__":
    main()

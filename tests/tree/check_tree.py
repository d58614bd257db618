#!/usr/bin/env python3
"""The repository's own rules (issue 35), checked on the files git tracks:
  - no source file over 600 lines (C, headers, kernels, Python, shell, CMake; bench/results/
    holds data and is not source);
  - no tracked archives (.tar, .tgz, .tar.gz, .zip, .xz, .bz2, .7z) nor binary profiler
    reports (.ncu-rep, .nsys-rep): results are committed as text;
  - no hard-coded 49152 (48 KiB, one vendor's local memory) in the library's code outside the
    dialect's defaults (kernels/magnus_dialect.h): a size comes from the probed device.
Usage: check_tree.py SOURCE_DIR [--plant KIND] (KIND: long, archive, literal: a planted
violation in a scratch copy of the list, which must fail). Exit 77 (skipped) outside a git
checkout (a source tarball has no list of tracked files)."""
import os
import re
import subprocess
import sys

MAX_LINES = 600
SOURCE = re.compile(r"(\.(c|h|cl|py|sh|cmake)|/CMakeLists\.txt|^CMakeLists\.txt)$")
ARCHIVE = re.compile(r"\.(tar|tgz|tar\.gz|zip|xz|bz2|7z|ncu-rep|nsys-rep)$")
LITERAL_DIRS = ("runtime/", "backends/", "kernels/", "include/")
LITERAL_OK = {"kernels/magnus_dialect.h"}


def tracked(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in out.decode().split("\0") if p]


def code_lines(text):
    """The lines of C text outside comments (a literal in a comment explains, not decides)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return [re.sub(r"//.*", "", line) for line in text.splitlines()]


def check(src, files, texts):
    bad = []
    for path in files:
        if ARCHIVE.search(path):
            bad.append(f"{path}: a tracked archive or binary report (commit results as text)")
        if path.startswith("bench/results/") or not SOURCE.search(path):
            continue
        text = texts(path)
        if text is None:
            continue
        n = text.count("\n")
        if n > MAX_LINES:
            bad.append(f"{path}: {n} lines, over {MAX_LINES} (split it by job)")
        if path.startswith(LITERAL_DIRS) and path not in LITERAL_OK and path.endswith((".c", ".h", ".cl")):
            for i, line in enumerate(code_lines(text), 1):
                if re.search(r"\b49152\b", line):
                    bad.append(f"{path}:{i}: hard-coded 49152 (take the device's local memory)")
    return bad


def main():
    src = sys.argv[1]
    plant = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--plant" else None
    files = tracked(src)
    if files is None:
        print("not a git checkout: skipped")
        return 77

    def texts(path):
        try:
            with open(os.path.join(src, path), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return None  # listed but deleted in the working tree

    if plant:
        planted = {"long": ("runtime/core/planted_long.c", "int x;\n" * (MAX_LINES + 1)),
                   "archive": ("bench/results/planted/all.tgz", ""),
                   "literal": ("runtime/core/planted_literal.c",
                               "/* 49152 in a comment is fine */\nint budget = 49152;\n")}[plant]
        files = files + [planted[0]]
        real = texts
        texts = lambda p: planted[1] if p == planted[0] else real(p)  # noqa: E731
    bad = check(src, files, texts)
    for b in bad:
        print(b)
    if plant:
        if not any(b.startswith(planted[0]) for b in bad):
            print(f"FAIL: the planted {plant} violation was not found")
            return 1
        print(f"ok: the planted {plant} violation is found")
        return 0
    print(f"{len(files)} tracked files: {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

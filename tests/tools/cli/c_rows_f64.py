#!/usr/bin/env python3
"""Checks rows of C = A*A written by `magnus multiply` against products formed in double.

Usage: c_rows_f64.py A.mtx[.gz] C.mtx ROWS RTOL
Reads A (real, general or symmetric) in Python floats (double), forms rows 1..ROWS of A*A with
the entries' products summed in double, and compares every entry of those rows of C relative
to sum |a||b| of its products. Exits 1 (printing the worst entry) when one differs by more
than RTOL, so a C computed in float (relative error ~1e-8) fails a tolerance of 1e-12.
"""
import gzip
import sys


def read(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = raw.decode("ascii").splitlines()
    symmetry = lines[0].lower().split()[4]
    body = [l for l in lines[1:] if l.strip() and not l.startswith("%")]
    rows = [dict() for _ in range(int(body[0].split()[0]))]
    for line in body[1:]:
        i, j, v = line.split()
        i, j, v = int(i) - 1, int(j) - 1, float(v)
        rows[i][j] = rows[i].get(j, 0.0) + v
        if symmetry == "symmetric" and i != j:
            rows[j][i] = rows[j].get(i, 0.0) + v
    return rows


def main():
    a, c = read(sys.argv[1]), read(sys.argv[2])
    nrows, rtol = int(sys.argv[3]), float(sys.argv[4])
    worst = (0.0, None)
    for i in range(min(nrows, len(a))):
        value, scale = {}, {}
        for k, x in a[i].items():
            for j, y in a[k].items():
                value[j] = value.get(j, 0.0) + x * y
                scale[j] = scale.get(j, 0.0) + abs(x * y)
        if set(value) != set(c[i]):
            print("row %d: columns differ" % (i + 1))
            sys.exit(1)
        for j, v in value.items():
            err = abs(c[i][j] - v) / scale[j] if scale[j] > 0 else abs(c[i][j] - v)
            if err > worst[0]:
                worst = (err, (i + 1, j + 1, c[i][j], v))
    if worst[0] > rtol:
        print("largest relative error %.3g at %s (C, double)" % worst)
        sys.exit(1)
    print("largest relative error %.3g" % worst[0])


if __name__ == "__main__":
    main()

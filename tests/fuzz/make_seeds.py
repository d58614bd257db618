#!/usr/bin/env python3
"""Writes the seed inputs of the Matrix Market fuzzer into OUTDIR.

    make_seeds.py OUTDIR [SHARED_MATRICES_DIR]

Two kinds of seed:
  - crafted cases: every banner variant, size lines at and past their limits, each symmetry
    and field, CRLF, comments and blank lines anywhere, odd numbers, truncations, gzip streams
    (whole, cut short, corrupted);
  - the head of each shared matrix (banner, comments, size line, first 20 entries), with the
    size line's entry count set to the entries kept so that it reads as a valid file (and its
    dimensions cut to the largest index kept when they exceed 100000, so that a seed stays
    cheap for the fuzzer).
Seeds are named by content hash, as libFuzzer names corpus files. Deterministic.
"""
import gzip
import hashlib
import itertools
import os
import sys
import zlib


def gz(data, mtime=0):
    return gzip.compress(data, compresslevel=6, mtime=mtime)


def crafted():
    out = []
    add = out.append
    body = b"3 3 4\n1 1 1.5\n2 1 -2\n3 2 0\n3 3 4e-3\n"
    sym_body = b"3 3 3\n1 1 1\n2 1 2.5\n3 2 -1\n"
    pat_body = b"3 3 3\n1 1\n2 1\n3 2\n"
    # banners: every object / format / field / symmetry, with bodies that fit
    for obj, fmt, field, sym in itertools.product(
            [b"matrix", b"vector", b"tensor"], [b"coordinate", b"array", b"sparse"],
            [b"real", b"double", b"integer", b"pattern", b"complex", b"quaternion"],
            [b"general", b"symmetric", b"skew-symmetric", b"hermitian", b"upper"]):
        if obj != b"matrix" and (fmt != b"coordinate" or field != b"real"):
            continue  # the reader stops at the object: one variant each is enough
        b = b"%%MatrixMarket " + b" ".join([obj, fmt, field, sym]) + b"\n"
        if field == b"pattern":
            add(b + pat_body)
        elif sym in (b"symmetric", b"skew-symmetric", b"hermitian"):
            add(b + sym_body)
        else:
            add(b + body)
    add(b"%%matrixmarket MATRIX Coordinate REAL General\n" + body)
    add(b"%%MatrixMarket\tmatrix\tcoordinate\treal\tgeneral\t\n" + body)
    add(b"%%MatrixMarket matrix coordinate real\n" + body)
    add(b"%%MatrixMarket matrix coordinate real general extra\n" + body)
    add(b"%%MatrixMarketmatrix coordinate real general\n" + body)
    add(b"%MatrixMarket matrix coordinate real general\n" + body)
    add(b"\n%%MatrixMarket matrix coordinate real general\n" + body)
    add(b"%%MatrixMarket matrix coordinate real general")
    add(b"%%MatrixMarket matrix coordinate real general\n")
    add(b"")
    add(b"\xef\xbb\xbf%%MatrixMarket matrix coordinate real general\n" + body)
    add(b"%%MatrixMarket matrix coordinate pattern skew-symmetric\n" + pat_body)
    B = b"%%MatrixMarket matrix coordinate real general\n"
    # size lines
    for size in [b"0 0 0", b"1 1 0", b"2147483647 2147483647 0", b"2147483648 1 0",
                 b"1 2147483648 0", b"1 1 4611686018427387903", b"1 1 4611686018427387904",
                 b"18446744073709551615 1 1", b"18446744073709551616 1 1",
                 b"99999999999999999999999 1 1", b"-1 1 1", b"1 -1 1", b"1 1 -1", b"1 1",
                 b"1", b"1 1 1 1", b"1.5 1 1", b"1e3 1 1", b"0x10 1 1", b"+1 1 1",
                 b"1 1 1 %", b"   2   2   1   ", b"2\t2\t1", b"2 2 1\r", b"200000 3 1"]:
        add(B + size + b"\n1 1 1\n")
    add(B + b"% comment\n%\n\n   \n% more\n2 2 1\n% c\n\n2 2 7\n%\n")
    add(B + b"2 2 1\n")  # declared 1, none given
    add(B + b"2 2 1\n1 1 1\n2 2 2\n")  # one too many
    add(B + b"3 3 0\n")  # empty matrix
    add(B + b"0 5 0\n")
    add(B + b"5 0 0\n")
    # entries: indices at and past the bounds
    for e in [b"0 1 1", b"1 0 1", b"4 1 1", b"1 4 1", b"3 3 1", b"-1 1 1", b"1 -1 1",
              b"18446744073709551617 1 1", b"1 1", b"1", b"1 1 1 1", b"a 1 1", b"1 b 1",
              b"1 1 x", b"1 1 1x", b"1 1 --1", b"1 1 1e", b"1 1 1e+", b"1 1 .", b"1 1 -.",
              b"1 1 .5", b"1 1 5.", b"1 1 +.5e-3", b"1 1 inf", b"1 1 -inf", b"1 1 nan",
              b"1 1 NaN", b"1 1 infinity", b"1 1 0x1p-3", b"1 1 1e308", b"1 1 1e309",
              b"1 1 -1e400", b"1 1 4.9e-324", b"1 1 2e-324", b"1 1 1e-400", b"1 1 3.4028235e38",
              b"1 1 3.4028236e38", b"1 1 1.17549435e-38", b"1 1 1.4e-45",
              b"1 1 9007199254740993", b"1 1 0.1000000000000000055511151231257827",
              b"1 1 " + b"1" * 30, b"1 1 0." + b"0" * 400 + b"1", b"1 1 1" + b"0" * 300,
              b"1 1 12345678901234567890123e-23", b"1 1 -0", b"1 1 0e999999999999",
              b"1 1 1e-99999999999999999999", b"1 1 \x00", b"1\x001 1", b"1 1 1\x00",
              b"1 1 1\x0b", b"1 1 1\x0c", b"\t1\t1\t1\t"]:
        add(B + b"3 3 1\n" + e + b"\n")
        add(B + b"3 3 1\n" + e)  # unterminated last line
    add(B.replace(b"real", b"integer") + b"2 2 3\n1 1 7\n2 2 -9223372036854775808\n1 2 99999999999999999999\n")
    add(B.replace(b"real", b"integer") + b"2 2 1\n1 1 1.5\n")
    # symmetry expansion, duplicates, explicit zeros, unsorted rows
    S = b"%%MatrixMarket matrix coordinate real symmetric\n"
    K = b"%%MatrixMarket matrix coordinate real skew-symmetric\n"
    P = b"%%MatrixMarket matrix coordinate pattern symmetric\n"
    add(S + b"3 3 4\n1 1 1\n2 1 2\n1 2 3\n3 3 0\n")
    add(S + b"2 3 1\n1 1 1\n")  # not square
    add(K + b"3 3 2\n2 1 2\n3 1 -1\n")
    add(K + b"3 3 1\n2 2 1\n")  # diagonal in skew
    add(P + b"3 3 3\n1 1\n2 1\n2 1\n")
    add(b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1 5\n2 2\n")
    dup = b"".join(b"%d %d %d\n" % (1 + (k * 7) % 3, 1 + (k * 5) % 40, k) for k in range(80))
    add(B + b"3 40 80\n" + dup)
    add(B + b"3 3 3\n1 3 0\n1 1 0\n1 2 -0\n")
    # line endings and blanks
    add((B + body).replace(b"\n", b"\r\n"))
    add((B + body).replace(b"\n", b"\r"))
    add((B + body).replace(b" ", b"  \t "))
    add(B + b"3 3 4\n\n1 1 1.5\n% between\n2 1 -2\n\r\n3 2 0\n   \n3 3 4e-3\n%\n")
    # truncations of a valid file at every point of its last lines
    whole = B + body
    for cut in range(len(B) - 3, len(whole)):
        add(whole[:cut])
    # gzip: whole, multi-member, cut short, corrupted, empty, not gzip after the magic
    for data in [B + body, S + b"3 3 3\n1 1 1\n2 1 2.5\n3 2 -1\n", b""]:
        z = gz(data)
        add(z)
        add(z[:len(z) // 2])
        add(z[:-4])
        bad = bytearray(z)
        bad[len(bad) // 2] ^= 0x55
        add(bytes(bad))
    add(gz(B + b"3 3 4\n1 1 1.5\n") + gz(b"2 1 -2\n3 2 0\n3 3 4e-3\n"))
    add(gz(B + body) + b"trailing garbage")
    add(b"\x1f\x8b")
    add(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
    add(b"\x1f")
    raw = zlib.compress(B + body)
    add(raw)  # zlib, not gzip: read as (binary) text
    # CR-only line ends (old Mac text): plain, after a BOM, gzip, and CR-only then CRLF
    add((B + body).replace(b"\n", b"\r"))
    add(b"\xef\xbb\xbf" + (b"%%MatrixMarket matrix coordinate real symmetric\n"
                           + sym_body).replace(b"\n", b"\r"))
    add(gz((B + body).replace(b"\n", b"\r")))
    add(B.replace(b"\n", b"\r") + b"3 3 1\r\n1 1 1\r\n")
    add(b"\xef\xbb\xbf")
    return out


def shared_heads(directory, entries=20, max_dim=100000):
    seeds = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".mtx", ".mtx.gz")):
            continue
        path = os.path.join(directory, name)
        opener = gzip.open if name.endswith(".gz") else open
        header, kept = [], []
        with opener(path, "rb") as f:
            for line in f:
                if not kept and (line.startswith(b"%") or not line.strip()) and len(header) < 40:
                    header.append(line)
                    continue
                kept.append(line)
                if len(kept) > entries:
                    break
        if not header or not kept:
            continue
        size, lines = kept[0].split(), kept[1:]
        if len(size) != 3:
            continue
        rows, cols = int(size[0]), int(size[1])
        if rows > max_dim or cols > max_dim:
            top = max((max(int(w) for w in l.split()[:2]) for l in lines), default=1)
            rows = cols = top
        seeds.append(b"".join(header) + b"%d %d %d\n" % (rows, cols, len(lines)) + b"".join(lines))
    return seeds


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    seeds = crafted()
    if len(sys.argv) == 3 and os.path.isdir(sys.argv[2]):
        heads = shared_heads(sys.argv[2])
        seeds += heads
        seeds += [gz(h) for h in heads[:3]]
    written = 0
    for s in seeds:
        name = hashlib.sha1(s).hexdigest()
        p = os.path.join(outdir, name)
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(s)
            written += 1
    print("make_seeds: %d seeds (%d new) in %s" % (len(seeds), written, outdir))


if __name__ == "__main__":
    main()

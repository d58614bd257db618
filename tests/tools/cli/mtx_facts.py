#!/usr/bin/env python3
"""Independent facts about Matrix Market files, for checking `magnus` against.

Usage: mtx_facts.py A.mtx[.gz] [B.mtx[.gz]]
Prints KEY=VALUE lines: rows, cols, nnz, row_max, empty_rows, values ("1" when every value is
1, else "mixed"), and for A*B (B defaults to A when A is square): products (intermediate
products) and nnz_product (entries of the product's structure), and with
MTX_LONG_ROW_PRODUCTS=T in the environment long_products (the products of the rows of A*B with
more than T products: MAGNUS_ALGORITHM_AUTO's statistic). Small matrices only: it is plain
Python.
"""
import gzip
import os
import sys


def read(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = raw.decode("ascii").splitlines()
    banner = lines[0].lower().split()
    field, symmetry = banner[3], banner[4]
    body = [l for l in lines[1:] if l.strip() and not l.startswith("%")]
    rows, cols, count = (int(x) for x in body[0].split())
    entries = {}
    for line in body[1 : 1 + count]:
        parts = line.split()
        i, j = int(parts[0]) - 1, int(parts[1]) - 1
        v = 1.0 if field == "pattern" else float(parts[2])
        pairs = [(i, j, v)]
        if symmetry != "general" and i != j:
            pairs.append((j, i, -v if symmetry == "skew-symmetric" else v))
        for a, b, x in pairs:
            entries[(a, b)] = entries.get((a, b), 0.0) + x
    row_cols = [set() for _ in range(rows)]
    for (i, j) in entries:
        row_cols[i].add(j)
    return rows, cols, entries, row_cols


def main():
    a_rows, a_cols, a_entries, a_row_cols = read(sys.argv[1])
    lengths = [len(r) for r in a_row_cols]
    print(f"rows={a_rows}")
    print(f"cols={a_cols}")
    print(f"nnz={len(a_entries)}")
    print(f"row_max={max(lengths, default=0)}")
    print(f"empty_rows={sum(1 for n in lengths if n == 0)}")
    print("values=" + ("1" if all(v == 1.0 for v in a_entries.values()) else "mixed"))
    if len(sys.argv) > 2:
        b_rows, _, _, b_row_cols = read(sys.argv[2])
    elif a_rows == a_cols:
        b_rows, b_row_cols = a_rows, a_row_cols
    else:
        return
    if b_rows != a_cols:
        return
    long_over = os.environ.get("MTX_LONG_ROW_PRODUCTS")
    products = 0
    nnz_product = 0
    long_products = 0
    for cols_i in a_row_cols:
        union = set()
        row_products = 0
        for k in cols_i:
            row_products += len(b_row_cols[k])
            union |= b_row_cols[k]
        products += row_products
        nnz_product += len(union)
        if long_over is not None and row_products > int(long_over):
            long_products += row_products
    print(f"products={products}")
    print(f"nnz_product={nnz_product}")
    if long_over is not None:
        print(f"long_products={long_products}")


if __name__ == "__main__":
    main()

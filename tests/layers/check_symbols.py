#!/usr/bin/env python3
"""The layers checked against every object (ctest layers_symbols).

Usage: check_symbols.py SOURCE_DIR READELF OBJECTS_FILE

OBJECTS_FILE (BUILD/layers_objects.txt, written by runtime/CMakeLists.txt) lists each layer's
object files by object library. Every symbol an object of a layer uses (undefined in its symbol
table, read with readelf -s: nm's table plus each symbol's visibility) that another layer of
libmagnus defines must be defined by a layer it sees or calls (runtime/layers.txt; "embedded":
the kernel binaries of magnus_embedded), or be of the public API (default visibility), which
every layer sees. The include paths already stop a layer from including a header it does not
see; this catches a prototype written by hand instead (`int magnus_backend_thing(void);` in an
algorithm) to call across the layers anyway.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_manifest  # noqa: E402


def read_objects(path):
    """{object library: [object files]} from OBJECTS_FILE."""
    objects = {}
    with open(path) as f:
        for line in f:
            target, _, files = line.strip().partition(" ")
            if target:
                objects[target] = [o for o in files.split(";") if o]
    return objects


def symbols(readelf, files):
    """(defined, undefined, public) of the global symbols of FILES: {symbol: object} for the
    first two, and the set of those defined with default visibility (the public API: every
    other symbol of the library is hidden, CMAKE_C_VISIBILITY_PRESET)."""
    defined, undefined, public = {}, {}, set()
    if not files:
        return defined, undefined, public
    run = subprocess.run([readelf, "-sW"] + files, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"{readelf} failed:\n{run.stderr}")
    where = files[0]
    for line in run.stdout.splitlines():
        if line.startswith("File: "):
            where = line[len("File: "):].strip()
            continue
        # Num: Value Size Type Bind Vis Ndx Name
        fields = line.split()
        if len(fields) != 8 or not fields[0].endswith(":") or fields[4] not in ("GLOBAL", "WEAK"):
            continue
        name, visibility, section = fields[7], fields[5], fields[6]
        if section == "UND":
            undefined.setdefault(name, where)
        else:
            defined.setdefault(name, where)
            if visibility == "DEFAULT":
                public.add(name)
    return defined, undefined, public


def violations(source_dir, readelf, objects):
    """The uses across layers the manifest does not allow, as messages; OBJECTS as read_objects
    returns (a planted object may be added to a layer's list)."""
    layers = layer_manifest.read(os.path.join(source_dir, "runtime", "layers.txt"))
    by_target = {layer.target: layer for layer in layers}
    missing = set(by_target) - set(objects)
    if missing:
        return [f"the objects of {', '.join(sorted(missing))} are not in the objects file"]
    owner = {}      # symbol -> the layer (folder, or "embedded") that defines it
    uses = {}       # layer folder -> {symbol: object}
    public = set()  # the public API, which every layer sees (include/magnus/magnus.h)
    for target, files in objects.items():
        name = layer_manifest.EMBEDDED if target == layer_manifest.EMBEDDED_TARGET else None
        if target in by_target:
            name = by_target[target].folder
        if name is None:
            return [f"{target} is in the objects file but no layer of runtime/layers.txt"]
        defined, undefined, exported = symbols(readelf, files)
        public |= exported
        for symbol in defined:
            owner.setdefault(symbol, name)
        uses[name] = undefined
    found = []
    for layer in layers:
        for symbol, obj in sorted(uses[layer.folder].items()):
            other = owner.get(symbol)
            if other is not None and symbol not in public and not layer.may_use(other):
                found.append(f"{layer.folder}: {os.path.basename(obj)} uses {symbol}, defined in "
                             f"{other}, which {layer.folder} does not see (runtime/layers.txt)")
    return found


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    source_dir, readelf, objects_file = sys.argv[1:]
    objects = read_objects(objects_file)
    found = violations(source_dir, readelf, objects)
    for message in found:
        print(f"FAIL: {message}")
    count = sum(len(files) for files in objects.values())
    print(f"layers_symbols: {count} objects of {len(objects)} libraries checked, "
          f"{len(found)} use(s) across the layers")
    return 1 if found or not count else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""layers_symbols can fail (ctest layers_symbols_planted): an object compiled with a layer's own
flags, calling through a prototype written by hand a hidden function of a layer it neither sees
nor calls, must be rejected by check_symbols.py, naming the function; the same object calling a
function of a layer it sees must pass (so the rejection is the reach, not the planted object).

Usage: plant_symbols.py SOURCE_DIR BUILD_DIR READELF OBJECTS_FILE
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_includes  # noqa: E402
import check_symbols  # noqa: E402

PLANTED_IN = "magnus_spgemm_hash"   # an algorithm...
FORBIDDEN = "magnus_backend_support"  # ...may not reach the backend layer (runtime/backend)
ALLOWED = "magnus_core"             # ...but may use the core


def hidden_function(readelf, files):
    """A function FILES define that is not of the public API (the first, by name)."""
    defined, _, public = check_symbols.symbols(readelf, files)
    names = sorted(set(defined) - public)
    if not names:
        raise SystemExit("plant_symbols: the layer defines no hidden function to reach")
    return names[0]


def compile_planted(build, target_folder, symbol, work):
    """An object calling SYMBOL, compiled with the flags of the first source of TARGET_FOLDER."""
    source = sorted(s for s in build.commands
                    if os.path.dirname(build.rel(s)) == target_folder)[0]
    directory, argv = build.commands[source]
    planted = os.path.join(work, f"planted_{symbol}.c")
    with open(planted, "w") as f:
        f.write(f"/* a prototype written by hand, to reach across the layers */\n"
                f"void {symbol}(void);\n"
                f"void magnus_planted_{symbol}(void);\n"
                f"void magnus_planted_{symbol}(void) {{ {symbol}(); }}\n")
    obj = planted + ".o"
    command = check_includes.dependency_command(directory, argv, source, planted)[:-1]
    run = subprocess.run(command + ["-c", "-o", obj], cwd=directory, capture_output=True,
                         text=True)
    if run.returncode != 0:
        raise SystemExit(f"plant_symbols: the planted object does not compile:\n{run.stderr}")
    return obj


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    source_dir, build_dir, readelf, objects_file = sys.argv[1:]
    build = check_includes.Build(source_dir, build_dir)
    objects = check_symbols.read_objects(objects_file)
    folder = next(layer.folder for layer in build.layers if layer.target == PLANTED_IN)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for target, expect_rejection in ((FORBIDDEN, True), (ALLOWED, False)):
            symbol = hidden_function(readelf, objects[target])
            planted = dict(objects)
            planted[PLANTED_IN] = objects[PLANTED_IN] + [compile_planted(build, folder, symbol,
                                                                          work)]
            found = check_symbols.violations(build.source_dir, readelf, planted)
            rejected = any(f" uses {symbol}, " in message for message in found)
            ok = rejected == expect_rejection and len(found) == int(expect_rejection)
            print(f"{'ok' if ok else 'FAIL'}: {folder} calls {symbol} of {target}: "
                  f"{'rejected' if expect_rejection else 'allowed'} expected")
            if not ok:
                failures += 1
                print("".join(f"    {m}\n" for m in found) or "    nothing rejected")
    print(f"layers_symbols_planted: {failures} case(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The layers checked against every real source (ctest layers_includes).

Usage: check_includes.py SOURCE_DIR BUILD_DIR

For every .c under runtime/ and backends/, runs the compiler with the exact command the build
uses for it (BUILD_DIR/compile_commands.json) turned into `-MM` (the file's dependencies,
system headers left out), and fails when
  - a dependency lies outside the folders its layer sees (runtime/layers.txt: its own folder,
    include/magnus, the runtime/ folders it names, kernels/ and kernels/shared/ for "kernels");
  - a dependency was reached through "..", or an #include of the file or of any of its headers
    names a sub-folder ("hash/x.h", "../core/x.h") that resolves inside the source tree: a
    layer names its headers by name alone, so that only its include path, the manifest's,
    decides what it sees. "magnus/magnus.h" and "shared/x.h" (kernels/shared/) are the two
    folders named on purpose.
A .c in no layer's folder is no part of libmagnus (a build-time tool such as
backends/level0/spirv/): it may include system headers only. Sources the build does not compile
(a tool whose toolchain is missing) are named and skipped.
"""
import json
import os
import re
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_manifest  # noqa: E402

INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
NAMED_FOLDERS = ("magnus/", "shared/")   # the folders an #include may name (see above)
# Flags of a compile command that write outputs; -MM replaces them.
OUTPUT_FLAGS_WITH_VALUE = {"-o", "-MT", "-MF", "-MQ"}
OUTPUT_FLAGS = {"-c", "-MD", "-MMD"}


class Build:
    """What the checks need of one build: the source tree, the manifest, the compile commands."""

    def __init__(self, source_dir, build_dir):
        self.source_dir = os.path.realpath(source_dir)
        self.build_dir = os.path.realpath(build_dir)
        self.layers = layer_manifest.read(os.path.join(self.source_dir, "runtime", "layers.txt"))
        path = os.path.join(self.build_dir, "compile_commands.json")
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: the build exports its compile commands "
                             "(CMAKE_EXPORT_COMPILE_COMMANDS, set in CMakeLists.txt)")
        with open(path) as f:
            entries = json.load(f)
        self.commands = {}
        for e in entries:
            argv = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            source = os.path.realpath(os.path.join(e["directory"], e["file"]))
            self.commands[source] = (e["directory"], argv)

    def rel(self, path):
        """PATH relative to the source tree, or as it is when outside (a planted copy)."""
        return os.path.relpath(path, self.source_dir) if self.in_tree(path) else path

    def in_tree(self, path):
        return os.path.normpath(path).startswith(self.source_dir + os.sep)


def dependency_command(directory, argv, source, compiled):
    """ARGV (run in DIRECTORY, compiling SOURCE) turned into -MM on COMPILED (SOURCE itself, or
    a planted copy)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in OUTPUT_FLAGS_WITH_VALUE:
            skip = True
        elif a in OUTPUT_FLAGS:
            continue
        elif not a.startswith("-") and os.path.realpath(os.path.join(directory, a)) == source:
            out.append(compiled)
        else:
            out.append(a)
    return out + ["-MM"]


def include_dirs(argv):
    dirs, take = [], False
    for a in argv:
        if take:
            dirs.append(a)
            take = False
        elif a in ("-I", "-iquote"):
            take = True
        elif a.startswith("-I"):
            dirs.append(a[2:])
    return dirs


def parse_dependencies(text):
    """The files a -MM rule lists after the target, the source first."""
    body = text.replace("\\\n", " ").split(":", 1)[1]
    return [p.replace("\\ ", " ") for p in re.split(r"(?<!\\)\s+", body.strip()) if p]


def naming_violations(build, path, search_dirs):
    """The #include lines of PATH that name a folder of the source tree (see the module doc)."""
    found = []
    with open(path, errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE_LINE.match(line)
            if not m or "/" not in m.group(2):
                continue
            name = m.group(2)
            parts = name.split("/")
            if name.startswith(NAMED_FOLDERS) and ".." not in parts and "." not in parts:
                continue
            dirs = ([os.path.dirname(path)] if m.group(1) == '"' else []) + search_dirs
            if any(os.path.exists(os.path.join(d, name)) and build.in_tree(os.path.join(d, name))
                   for d in dirs):
                how = 'reaches with ".."' if ".." in parts else "names a sub-folder"
                close = '"' if m.group(1) == '"' else ">"
                found.append(f"{build.rel(path)}:{number}: #include {m.group(1)}{name}{close} {how}; "
                             "a layer names its headers alone, its include path says which it sees")
    return found


def check_source(build, source, compiled=None):
    """The violations of SOURCE (absolute, real path) compiled as COMPILED (default: itself),
    or None when the build does not compile it."""
    compiled = compiled or source
    layer = layer_manifest.layer_of(build.layers, build.source_dir, source)
    if source not in build.commands:
        if layer:
            return [f"{build.rel(source)}: in layer {layer.folder} but not compiled by the build"]
        return None
    directory, argv = build.commands[source]
    run = subprocess.run(dependency_command(directory, argv, source, compiled), cwd=directory,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return [f"{build.rel(source)}: does not compile with its own flags:\n{run.stderr}"]
    allowed = layer.header_folders() if layer else set()
    where = layer.folder if layer else "a source in no layer (a build-time tool)"
    search_dirs = include_dirs(argv)
    found = []
    for dep in parse_dependencies(run.stdout):
        full = os.path.join(directory, dep)
        if "/../" in full or "/./" in full:
            found.append(f"{build.rel(source)}: depends on {dep}, reached through '..'")
        real = os.path.realpath(full)
        if real == os.path.realpath(compiled):
            pass
        elif real.startswith(build.build_dir + os.sep):
            found.append(f"{build.rel(source)}: depends on {dep}, generated by the build, which "
                         f"no layer sees")
            continue
        elif not build.in_tree(real):
            continue   # a vendor's or the system's header
        elif os.path.dirname(build.rel(real)) not in allowed:
            found.append(f"{build.rel(source)}: depends on {build.rel(real)}, in "
                         f"{os.path.dirname(build.rel(real))}, which {where} does not see "
                         "(runtime/layers.txt)")
        found += naming_violations(build, full, search_dirs)
    return found


def all_sources(build):
    for top in ("runtime", "backends"):
        for root, _, files in os.walk(os.path.join(build.source_dir, top)):
            for name in sorted(files):
                if name.endswith(".c"):
                    yield os.path.realpath(os.path.join(root, name))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    build = Build(sys.argv[1], sys.argv[2])
    checked, failures = 0, 0
    for source in sorted(all_sources(build)):
        found = check_source(build, source)
        if found is None:
            print(f"skipped: {build.rel(source)} (not compiled by this build)")
            continue
        checked += 1
        for message in found:
            print(f"FAIL: {message}")
        failures += bool(found)
    print(f"layers_includes: {checked} sources checked, {failures} with a violation")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())

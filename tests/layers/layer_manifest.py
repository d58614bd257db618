"""runtime/layers.txt, the manifest of the layers (its header says the format), read the way
runtime/CMakeLists.txt reads it, for the checks of tests/layers/ (check_includes.py,
check_symbols.py)."""
import os

# What a layer may see besides runtime/ folders: kernels/ (headers), the embedded binaries.
KERNELS = "kernels"
EMBEDDED = "embedded"
# The object library of the kernel binaries the build embeds, the layer called "embedded".
EMBEDDED_TARGET = "magnus_embedded"


class Layer:
    def __init__(self, folder, target, sees, calls):
        self.folder = folder          # relative to the source tree, e.g. runtime/spgemm/hash
        self.target = target          # its object library, e.g. magnus_spgemm_hash
        self.sees = sees              # runtime/ folders, "kernels"
        self.calls = calls            # layer folders, "embedded": their symbols, no headers

    def header_folders(self):
        """The folders whose headers the layer may include (relative to the source tree)."""
        folders = {"include/magnus", self.folder}
        folders.update(s for s in self.sees if s.startswith("runtime/"))
        if KERNELS in self.sees:
            folders.update({"kernels", "kernels/shared"})
        return folders

    def may_use(self, other):
        """Whether this layer may use symbols defined by layer OTHER (its folder, or EMBEDDED)."""
        return other == self.folder or other in self.sees or other in self.calls


def read(path):
    """The layers of the manifest at PATH, in its order; raises ValueError on a malformed line."""
    layers = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) < 2:
                raise ValueError(f"{path}:{number}: a layer needs a folder and an object library")
            rest = fields[2:]
            split = rest.index("calls") if "calls" in rest else len(rest)
            layers.append(Layer(fields[0], fields[1], set(rest[:split]), set(rest[split + 1:])))
    folders = {layer.folder for layer in layers}
    for layer in layers:
        for seen in layer.sees - {KERNELS}:
            if not seen.startswith("runtime/") or seen not in folders:
                raise ValueError(f"{path}: {layer.folder} sees {seen}, which is no runtime/ layer")
        for called in layer.calls - {EMBEDDED}:
            if called not in folders:
                raise ValueError(f"{path}: {layer.folder} calls {called}, which is no layer")
    return layers


def layer_of(layers, source_dir, path):
    """The layer whose folder holds the file PATH (its own folder, not a parent's), or None."""
    folder = os.path.relpath(os.path.dirname(os.path.abspath(path)), source_dir)
    return next((layer for layer in layers if layer.folder == folder), None)

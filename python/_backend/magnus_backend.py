"""The magnus package's own PEP 517 build backend (pyproject.toml: backend-path = ["_backend"]).

Why not setuptools: the package is pure Python plus, optionally, a prebuilt libmagnus.so, so a
wheel is a zip of known files. setuptools 66 (Debian 12's, and the one `python3 -m venv` puts in
a venv) needs the separate `wheel` package to make one, which a fresh venv lacks and an
offline machine cannot fetch, and it writes build/ and magnus.egg-info/ into python/. This
backend needs nothing beyond the standard library (build requirements: none, so pip's build
isolation has nothing to download) and writes only into the directories pip gives it: the
source tree stays as it was.

The library bundled (as magnus/_lib/libmagnus.so, which magnus/_lib.py loads when
MAGNUS_LIBRARY is not set) is the file MAGNUS_BUNDLE_LIBRARY names at build time, else the
repository's own build (../build/runtime/libmagnus.so, what scripts/setup.sh makes); with
neither the wheel holds no library and the package finds one at run time (magnus/_lib.py).
A wheel with a library is tagged for this platform, one without is py3-none-any.
"""
import base64
import hashlib
import io
import os
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
# wheels and sdists are reproducible: fixed timestamps (zip's epoch is 1980)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _project():
    """pyproject.toml's [project] table."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        try:
            import tomli as tomllib
        except ImportError:
            raise RuntimeError("building magnus needs Python 3.11's tomllib or the tomli "
                               "package (to read pyproject.toml)") from None
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name(p):
    return f"{p['name']}-{p['version']}"


def _metadata(p):
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p['description']}", f"Requires-Python: {p['requires-python']}"]
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, p["readme"]), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def _library():
    """The libmagnus.so to bundle (its real file, symlinks resolved), or None."""
    lib = os.environ.get("MAGNUS_BUNDLE_LIBRARY")
    if lib:
        if not os.path.isfile(lib):
            raise RuntimeError(f"MAGNUS_BUNDLE_LIBRARY={lib}: no such file")
        return os.path.realpath(lib)
    built = os.path.join(HERE, "..", "build", "runtime", "libmagnus.so")
    if os.path.isfile(built):
        print(f"magnus: bundling the repository's build {os.path.realpath(built)}")
        return os.path.realpath(built)
    print("magnus: no library bundled (MAGNUS_BUNDLE_LIBRARY unset, no ../build): the "
          "package loads MAGNUS_LIBRARY's or the system's libmagnus")
    return None


def _sources():
    """(path in the wheel, path on disk) of the package's modules, sorted."""
    pkg = os.path.join(HERE, "magnus")
    return [(f"magnus/{n}", os.path.join(pkg, n)) for n in sorted(os.listdir(pkg))
            if n.endswith(".py") and os.path.isfile(os.path.join(pkg, n))]


def _tag(lib):
    if lib is None:
        return "py3-none-any"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: magnus_backend\n"
            f"Root-Is-Purelib: {'true' if tag.endswith('-any') else 'false'}\nTag: {tag}\n")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_dist_info(directory, p, tag):
    info = os.path.join(directory, f"{_dist_name(p)}.dist-info")
    os.makedirs(info, exist_ok=True)
    for name, text in (("METADATA", _metadata(p)), ("WHEEL", _wheel_file(tag))):
        with open(os.path.join(info, name), "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.basename(info)


# ---- PEP 517 hooks ---------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_dist_info(metadata_directory, _project(), _tag(_library()))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    lib = _library()
    tag = _tag(lib)
    files = [(name, path, 0o644) for name, path in _sources()]
    if lib is not None:
        files.append(("magnus/_lib/libmagnus.so", lib, 0o755))
    info = f"{_dist_name(p)}.dist-info"
    generated = [(f"{info}/METADATA", _metadata(p).encode()),
                 (f"{info}/WHEEL", _wheel_file(tag).encode())]
    wheel = f"{p['name']}-{p['version']}-{tag}.whl"
    path = os.path.join(wheel_directory, wheel)
    record = []

    def add(zf, name, data, mode):
        zi = zipfile.ZipInfo(name, ZIP_TIME)
        zi.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
        zi.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(zi, data)
        record.append(_record_line(name, data))

    with zipfile.ZipFile(path, "w") as zf:
        for name, src, mode in files:
            with open(src, "rb") as f:
                add(zf, name, f.read(), mode)
        for name, data in generated:
            add(zf, name, data, 0o644)
        record.append(f"{info}/RECORD,,")
        zi = zipfile.ZipInfo(f"{info}/RECORD", ZIP_TIME)
        zi.external_attr = (0o100644) << 16
        zf.writestr(zi, "\n".join(record) + "\n")
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    """The package's sources (no library: an sdist builds wherever it is installed)."""
    p = _project()
    base = _dist_name(p)
    names = ["pyproject.toml", p["readme"], "_backend/magnus_backend.py"]
    names += [name for name, _ in _sources()]
    path = os.path.join(sdist_directory, f"{base}.tar.gz")
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tf:
        def add(name, data):
            ti = tarfile.TarInfo(f"{base}/{name}")
            ti.size, ti.mode, ti.mtime = len(data), 0o644, 315532800
            tf.addfile(ti, io.BytesIO(data))
        for name in names:
            with open(os.path.join(HERE, name), "rb") as f:
                add(name, f.read())
        add("PKG-INFO", _metadata(p).encode())
    return os.path.basename(path)

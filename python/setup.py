"""Build hook of the magnus package (metadata: pyproject.toml).

The libmagnus.so that MAGNUS_BUNDLE_LIBRARY names at build time, else the repository's own
build (build/runtime/libmagnus.so beside this directory, what scripts/setup.sh makes), is
copied into the package as magnus/_lib/libmagnus.so, which the package then loads when
MAGNUS_LIBRARY is not set (magnus/_lib.py says the order). With neither the package holds no
library and finds the one MAGNUS_LIBRARY names or the system loader's (an installed magnus).
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyBundling(build_py):
    def run(self):
        super().run()
        lib = os.environ.get("MAGNUS_BUNDLE_LIBRARY")
        if not lib:
            here = os.path.dirname(os.path.abspath(__file__))
            built = os.path.join(here, "..", "build", "runtime", "libmagnus.so")
            if os.path.isfile(built):
                lib = os.path.realpath(built)
                print(f"magnus: bundling the repository's build {lib}")
        if lib:
            if not os.path.isfile(lib):
                raise SystemExit(f"MAGNUS_BUNDLE_LIBRARY={lib}: no such file")
            dest = os.path.join(self.build_lib, "magnus", "_lib")
            os.makedirs(dest, exist_ok=True)
            shutil.copyfile(lib, os.path.join(dest, "libmagnus.so"))


setup(cmdclass={"build_py": BuildPyBundling})

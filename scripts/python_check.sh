#!/usr/bin/env bash
# The Python package as a user installs it, offline: a venv over Debian's python3 that sees
# the system's numpy, scipy, pytest, setuptools and wheel (scripts/install-deps.sh), the
# package installed from ./python with this build's libmagnus bundled, then its tests on the
# device magnus picks (PoCL's CPU device without a GPU).
#   scripts/python_check.sh [BUILD_DIR [VENV_DIR]]   (defaults: build, BUILD_DIR/python-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
venv=${2:-$build/python-venv}
lib=$(readlink -f "$build/runtime/libmagnus.so")
[ -f "$lib" ] || { echo "python_check: no $build/runtime/libmagnus.so (build first)" >&2; exit 1; }
/usr/bin/python3 -m venv --clear --system-site-packages "$venv"
rm -rf python/build python/magnus.egg-info
MAGNUS_BUNDLE_LIBRARY=$lib "$venv/bin/python" -m pip install -q --no-build-isolation \
  --no-index --no-deps --no-cache-dir ./python
rm -rf python/build python/magnus.egg-info
# the installed package, with its own copy of the library, not the source tree's
(cd "$venv" && env -u MAGNUS_LIBRARY PYTHONDONTWRITEBYTECODE=1 bin/python -c '
import magnus, os, sys
assert "site-packages" in magnus.__file__, magnus.__file__
assert magnus.library_path().startswith(os.path.dirname(magnus.__file__)), magnus.library_path()
print("python_check: magnus", magnus.__version__, "at", os.path.dirname(magnus.__file__),
      "library", magnus.library_version())')
(cd "$venv" && env -u MAGNUS_LIBRARY PYTHONDONTWRITEBYTECODE=1 \
  bin/python -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")

#!/usr/bin/env bash
# The Python package as a user installs it, offline, with README.md's command: a fresh venv
# over Debian's python3 that sees the system's numpy, scipy and pytest
# (scripts/install-deps.sh), `pip install ./python` with this build's libmagnus bundled
# (pip's default build isolation: the package's own backend needs nothing installed, no
# setuptools, no wheel), then its tests on the device magnus picks (PoCL's CPU device without a
# GPU). Fails when the install wrote anything into python/ (build/, *.egg-info, bytecode).
#   scripts/python_check.sh [--install-only] [BUILD_DIR [VENV_DIR]]
#   (defaults: build, BUILD_DIR/python-venv; --install-only: no pytest, ctest's python_install)
set -euo pipefail
cd "$(dirname "$0")/.."
tests=1
if [ "${1:-}" = "--install-only" ]; then tests=0; shift; fi
build=${1:-build}
venv=${2:-$build/python-venv}
python=${MAGNUS_SYSTEM_PYTHON:-/usr/bin/python3}
lib=$(readlink -f "$build/runtime/libmagnus.so")
[ -f "$lib" ] || { echo "python_check: no $build/runtime/libmagnus.so (build first)" >&2; exit 1; }
if ! "$python" -c 'import ensurepip, numpy, scipy' 2>/dev/null; then
  # ctest's entry skips (77) as python_opencl does; CI's own call fails
  echo "python_check: $python lacks venv (ensurepip), numpy or scipy (Debian: python3-venv" \
    "python3-numpy python3-scipy, which scripts/install-deps.sh installs)" >&2
  [ "$tests" = 1 ] && exit 1 || exit 77
fi
"$python" -m venv --clear --system-site-packages "$venv"
before=$(find python | LC_ALL=C sort)
# Offline and from nowhere else: no index, no extra wheel directories, no user pip config, no
# wheel cache (what the machine's shell may set).
env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
  PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 MAGNUS_BUNDLE_LIBRARY="$lib" \
  "$venv/bin/pip" install -q ./python
after=$(find python | LC_ALL=C sort)
if [ "$before" != "$after" ]; then
  echo "python_check: pip install wrote into python/:" >&2
  diff <(echo "$before") <(echo "$after") | sed -n 's/^> /  /p' >&2
  exit 1
fi
# the installed package, with its own copy of the library, not the source tree's
(cd "$venv" && env -u MAGNUS_LIBRARY PYTHONDONTWRITEBYTECODE=1 bin/python -c '
import magnus, os, sys
assert "site-packages" in magnus.__file__, magnus.__file__
assert magnus.library_path().startswith(os.path.dirname(magnus.__file__)), magnus.library_path()
print("python_check: magnus", magnus.__version__, "at", os.path.dirname(magnus.__file__),
      "library", magnus.library_version())')
[ "$tests" = 1 ] || exit 0
# the report's layout the build wrote (test_report_layout.py checks the mirror against it)
layout=$(readlink -f "$build/report_layout.json" || true)
(cd "$venv" && env -u MAGNUS_LIBRARY PYTHONDONTWRITEBYTECODE=1 MAGNUS_REPORT_LAYOUT="$layout" \
  bin/python -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")

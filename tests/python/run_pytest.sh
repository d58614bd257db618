#!/usr/bin/env bash
# The Python package's tests (python/tests) against this build's libmagnus, from the source
# tree without installing: run_pytest.sh PYTHON SOURCE_DIR LIBMAGNUS [TESTS...] (the tests
# named, default all of python/tests). Skips (exit 77) when PYTHON lacks numpy, scipy or
# pytest (Debian: python3-numpy python3-scipy python3-pytest, which scripts/install-deps.sh
# installs). .ci/run also tests the installed package.
set -euo pipefail
python=$1 src=$2 lib=$3
shift 3
[ $# -gt 0 ] || set -- "$src/python/tests"
if ! "$python" -c 'import numpy, scipy, pytest' 2>/dev/null; then
  echo "python: $python lacks numpy, scipy or pytest; skipped"
  exit 77
fi
export MAGNUS_LIBRARY=$lib PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1
exec "$python" -m pytest -q -p no:cacheprovider "$@"

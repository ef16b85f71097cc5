#!/usr/bin/env bash
# The whole check, as CI runs it: set-up, lint, types, tests, on two QEMUs.
#
# The system's QEMU runs the whole suite. A second QEMU, 10.0.2 from Debian
# bookworm-backports (scripts/second-qemu.sh, into a cache folder; the
# system's QEMU is left alone), runs the QEMU-matrix tests again
# (-m qemu_matrix, tests/conftest.py) and, in the whole suite, is compared
# with the first figure for figure (tests/test_qemu_versions.py). Arguments
# go to the whole suite's pytest; with any, the second pass is left out.
# Both passes run on every core (pytest-xdist), a test file to a worker, so a
# module's fixtures (a built firmware, a cluster) are made once; the tests
# marked `alone` (the default campaign, whose POSIX runs time the host) run
# first, by themselves, as they ran early in the suite when it was one pass
# (with arguments: one parallel pass).
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/install.sh
.venv/bin/ruff check .
.venv/bin/mypy

second=$(bash scripts/second-qemu.sh)
status=0
if [ "$#" -eq 0 ]; then
    RTOSMETER_QEMU_SECOND="$second" .venv/bin/pytest -q -m alone || status=$?
    echo "QEMU-matrix tests on the second QEMU: $("$second" --version | head -1)"
    RTOSMETER_QEMU="$second" .venv/bin/pytest -q -n auto --dist loadfile -m qemu_matrix \
        || status=$?
    RTOSMETER_QEMU_SECOND="$second" .venv/bin/pytest -q -n auto --dist loadfile -m "not alone" \
        || status=$?
else
    RTOSMETER_QEMU_SECOND="$second" .venv/bin/pytest -q -n auto --dist loadfile "$@" || status=$?
fi
if [ "$status" -eq 5 ]; then
    echo "Error: pytest collected no tests in tests/. Check the test paths." >&2
    exit 1
fi
exit "$status"

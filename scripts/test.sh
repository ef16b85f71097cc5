#!/usr/bin/env bash
# The whole check, as CI runs it: set-up, lint, types, tests.
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/install.sh
.venv/bin/ruff check .
.venv/bin/mypy
status=0
.venv/bin/pytest -q "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "Error: pytest collected no tests in tests/. Check the test paths." >&2
    exit 1
fi
exit "$status"

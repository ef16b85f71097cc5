#!/usr/bin/env bash
# One set-up command for rtosmeter on Debian/Ubuntu: system tools (compilers,
# CMake, Ninja, QEMU, Chromium for the HTML report tests) and a virtualenv
# with rtosmeter installed in editable mode. Safe to run again: apt-get and
# pip skip what is already there.
set -euo pipefail

cd "$(dirname "$0")/.."

PACKAGES=(
    cmake ninja-build gcc g++ gcc-multilib make git
    python3 python3-venv python3-pip
    gcc-arm-none-eabi libnewlib-arm-none-eabi clang lld
    qemu-system-arm chromium device-tree-compiler
    genromfs   # NuttX's ROMFS images (the sim's /etc in the vendor profile)
    openocd
)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "Error: installing system packages needs root in scripts/install.sh." \
             "Run it as root or install sudo." >&2
        exit 1
    fi
}

missing=()
for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "Error: apt-get not found in scripts/install.sh. Install these packages with" \
             "your system's package manager: ${missing[*]}" >&2
        exit 1
    fi
    echo "Installing system packages: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
else
    echo "System packages: all present."
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# Every Python package at the version and hash requirements.lock pins (dev,
# boards: pyOCD, the board runner; farm: labgrid and Dask), then rtosmeter
# itself without resolving anything again. Refresh the lock after changing
# pyproject.toml's dependencies (README, "Python dependencies").
.venv/bin/python -m pip install -q --require-hashes -r requirements.lock
# ppk2-api without its pyserial: labgrid's pyserial-labgrid provides `serial`
# (requirements-ppk2.lock says why).
.venv/bin/python -m pip install -q --no-deps --require-hashes -r requirements-ppk2.lock
.venv/bin/python -m pip install -q --no-deps -e .
# Bytecode now, so the first command starts as fast as the next (`--help` in
# about 0.1 s) even where Python may not write it later.
.venv/bin/python -m compileall -q src >/dev/null
# The QEMU plugin (exact instructions, estimated cycles) with the host gcc:
# one build per plugin API generation, so the QEMU installed above and any
# other from 7.2 on (--qemu, RTOSMETER_QEMU) finds its own (docs/qemu.md).
make -s -C plugins/qemu
echo "Ready: .venv/bin/rtosmeter run"

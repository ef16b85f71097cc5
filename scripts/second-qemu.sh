#!/usr/bin/env bash
# A second QEMU for the QEMU-matrix tests, beside the system's (Debian 12's
# 7.2, which stays as it is): QEMU 10.0.2 from bookworm-backports, the
# version Debian 13 ships. `apt-get download` with a private sources list
# and package lists, then `dpkg -x` into a cache folder; nothing is
# installed. Prints the path of a qemu-system-arm that runs it.
#
#   bash scripts/second-qemu.sh            # -> CACHE/qemu-10.0.2/bin/qemu-system-arm
#   RTOSMETER_CACHE=DIR bash scripts/second-qemu.sh
#
# Run again, it reuses the cache. It fails (exit 1, saying why) where the
# packages cannot be fetched or the binary does not start on this machine.
set -euo pipefail

SUITE=bookworm-backports
VERSION=10.0.2
PACKAGES=(qemu-system-arm qemu-system-common qemu-system-data)
CACHE="${RTOSMETER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rtosmeter}"
DEST="$CACHE/qemu-$VERSION"
WRAPPER="$DEST/bin/qemu-system-arm"

if [ -x "$WRAPPER" ] && "$WRAPPER" --version 2>/dev/null | grep -q "version $VERSION"; then
    echo "$WRAPPER"
    exit 0
fi
for tool in apt-get dpkg; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "Error: scripts/second-qemu.sh needs $tool (Debian or Ubuntu) to fetch QEMU" \
             "$VERSION from $SUITE" >&2
        exit 1
    fi
done

work="$DEST.partial"
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/debs"
echo "deb http://deb.debian.org/debian $SUITE main" > "$work/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache"
          -o "APT::Sandbox::User=root" -q)
echo "Fetching QEMU $VERSION from Debian $SUITE into $DEST" >&2
if ! apt-get "${apt_opts[@]}" update >"$work/apt.log" 2>&1; then
    echo "Error: cannot read Debian's $SUITE package list (see $work/apt.log)" >&2
    exit 1
fi
wanted=()
for pkg in "${PACKAGES[@]}"; do
    candidate=$(apt-cache "${apt_opts[@]}" policy "$pkg" | awk '/Candidate:/ {print $2}')
    case "$candidate" in
        *:"$VERSION"+*) wanted+=("$pkg=$candidate") ;;
        *) echo "Error: $SUITE offers $pkg ${candidate:-(none)}, not $VERSION" >&2; exit 1 ;;
    esac
done
(cd "$work/debs" && apt-get "${apt_opts[@]}" download "${wanted[@]}" >>"$work/apt.log" 2>&1) || {
    echo "Error: apt-get download ${wanted[*]} failed (see $work/apt.log)" >&2
    exit 1
}
for deb in "$work"/debs/*.deb; do
    dpkg -x "$deb" "$work/root"
done
mkdir -p "$work/bin"
# QEMU looks for its modules where Debian installs them; this one's are here.
cat > "$work/bin/qemu-system-arm" <<EOF
#!/bin/sh
QEMU_MODULE_DIR="$DEST/root/usr/lib/x86_64-linux-gnu/qemu" exec "$DEST/root/usr/bin/qemu-system-arm" "\$@"
EOF
chmod +x "$work/bin/qemu-system-arm"
rm -rf "$DEST" "$work/debs" "$work/apt/cache"
mv "$work" "$DEST"
if ! "$WRAPPER" --version 2>"$DEST/start.log" | grep -q "version $VERSION"; then
    echo "Error: QEMU $VERSION from $SUITE does not start on this machine:" \
         "$(tail -1 "$DEST/start.log")" >&2
    exit 1
fi
echo "$WRAPPER"

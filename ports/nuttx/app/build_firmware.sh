#!/bin/sh
# One NuttX firmware per benchmark group, with NuttX's own make.
#   build_firmware.sh NUTTX_DIR APPS_DIR OUT_DIR SUFFIX AR JOBS GROUP...
# NUTTX_DIR and APPS_DIR are the build's copies of the trees (configured by
# ports/nuttx/app/CMakeLists.txt). `make context` generates NuttX's headers,
# then the application's Makefile compiles every group's object. Per
# group, apps/staging/librm_group.a holds that group's object alone (NuttX's
# link takes every library in apps/staging), and make links `nuttx` again,
# which is copied to OUT_DIR/rm_<group><SUFFIX> with its map.
set -eu
nuttx=$1 apps=$2 out=$3 suffix=$4 ar=$5 jobs=$6
shift 6

make -C "$nuttx" context
make -C "$apps/rtosmeter" -j"$jobs" TOPDIR="$nuttx" APPDIR="$apps" rm_group_objs
for group in "$@"; do
    rm -f "$apps/staging/librm_group.a" "$nuttx/nuttx" "$out/rm_$group$suffix" "$out/rm_$group.map"
    "$ar" rcs "$apps/staging/librm_group.a" "$apps/rtosmeter/rm_group_$group.o"
    make -C "$nuttx" -j"$jobs"
    cp "$nuttx/nuttx" "$out/rm_$group$suffix"
    cp "$nuttx/nuttx.map" "$out/rm_$group.map"
done
rm -f "$apps/staging/librm_group.a"

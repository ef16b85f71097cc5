#!/usr/bin/env python3
"""The framework's own on-target cost, from the ELF of a bare-metal firmware.

Counts what rtosmeter itself puts on the target beyond the benchmark: the
result stream, measurement and runner (bench/core, "framework") and the
start-up/target layer ("startup"), without the sample buffer (series_buf,
RM_BATCH samples per open series, sized by the run parameters) and without
the main stack the linker script reserves. Goal: <= 4 KiB Flash, <= 1 KiB RAM.

    scripts/bench_footprint.py OUT/build/baremetal/qemu-mps2-an385/default/rm_irq.elf
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rtosmeter.footprint import footprint

GOAL_FLASH = 4096
GOAL_RAM = 1024
SAMPLE_BUFFERS = ("series_buf",)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The framework's own on-target cost.")
    ap.add_argument("elf", type=Path, help="a bare-metal firmware ELF (its .map next to it)")
    ap.add_argument("--check", action="store_true", help="exit 1 when over the goal")
    args = ap.parse_args(argv)
    fp = footprint(args.elf)
    if not fp.map_file:
        print(f"Error: no linker map next to {args.elf}. Build it with a Cortex-M target "
              "(targets/common/cortex-m/cortex-m.cmake writes <name>.map)", file=sys.stderr)
        return 1
    stack = fp.parts.get("stacks", (0, 0))[1]  # the main stack: a part of its own
    buffers = sum(size for name, (part, size) in fp.symbols.items()
                  if name in SAMPLE_BUFFERS and part == "framework")
    rows = []
    for part in ("framework", "startup"):
        flash, ram = fp.parts.get(part, (0, 0))
        if part == "framework":
            ram -= buffers
        rows.append((part, flash, ram))
    total_flash = sum(r[1] for r in rows)
    total_ram = sum(r[2] for r in rows)
    print(f"{args.elf}  (whole firmware: Flash {fp.flash} B, RAM {fp.ram} B)")
    print(f"{'part':<12}{'Flash B':>10}{'RAM B':>10}")
    for part, flash, ram in rows:
        print(f"{part:<12}{flash:>10}{ram:>10}")
    print(f"{'total':<12}{total_flash:>10}{total_ram:>10}   goal <= {GOAL_FLASH} / "
          f"<= {GOAL_RAM}")
    print(f"margin: {GOAL_FLASH - total_flash} B Flash, {GOAL_RAM - total_ram} B RAM")
    print(f"not counted: sample buffer {buffers} B RAM, main stack {stack} B RAM")
    biggest = sorted(((size, name) for name, (part, size) in fp.symbols.items()
                      if part in ("framework", "startup") and name not in SAMPLE_BUFFERS),
                     reverse=True)[:8]
    print("largest: " + ", ".join(f"{name} {size}" for size, name in biggest))
    over = total_flash > GOAL_FLASH or total_ram > GOAL_RAM
    if over:
        print("over the goal", file=sys.stderr)
    return 1 if over and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

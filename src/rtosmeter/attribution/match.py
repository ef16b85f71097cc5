"""The plugin's attribution file (plugins/qemu/attrib.c) read back, and each
series matched with the group of intervals that made its samples.

A group is every segment between two reads at the same two sites within one
case (its epoch: the case's place in the stream, from 1). A series matches
a group when the group's segments, in order, are its samples: the same
count, sum and FNV-1a hash of their 32-bit values. Where that is not one
group (a span series, a sample that is the sum of several segments), the
series is left unattributed with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rtosmeter.attribution.funcmap import OUTSIDE

FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
MASK64 = (1 << 64) - 1


@dataclass
class Group:
    epoch: int
    open: int
    close: int
    count: int
    sum_i: int
    sum_c: int
    hash: int
    functions: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # insns, cycles, calls


@dataclass(frozen=True)
class Attribution:
    mode: str  # instructions | cycles
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class Matched:
    case_id: str
    series: str
    group: Group | None
    reason: str = ""  # why there is no group


def samples_hash(samples: npt.NDArray[np.uint32]) -> int:
    """FNV-1a over the samples' little-endian bytes, as attrib.c hashes them."""
    h = FNV_OFFSET
    for byte in np.asarray(samples, dtype="<u4").tobytes():
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def read_attribution(out: Path, names_file: Path) -> Attribution:
    """The plugin's file, with function indexes named (ValueError: malformed)."""
    names: list[str] = json.loads(names_file.read_text(encoding="utf-8"))
    lines = out.read_text(encoding="utf-8").splitlines()
    head = lines[0].split() if lines else []
    if len(head) != 4 or head[:2] != ["rmattrib", "1"]:
        raise ValueError(f"{out}: not an rmattrib 1 file")
    fields = dict(kv.split("=", 1) for kv in head[2:])
    if int(fields["functions"]) != len(names):
        raise ValueError(f"{out}: {fields['functions']} functions, the map names {len(names)}")
    groups: list[Group] = []
    for line in lines[1:]:
        parts = line.split()
        if parts[0] == "group":
            kv = dict(p.split("=", 1) for p in parts[2:])
            groups.append(Group(int(kv["epoch"]), int(kv["open"], 16), int(kv["close"], 16),
                                int(kv["count"]), int(kv["sum_i"]), int(kv["sum_c"]),
                                int(kv["hash"], 16)))
        elif parts[0] == "entry":
            g, f, insns, cycles, calls = (int(p) for p in parts[1:6])
            name = names[f] if f < len(names) else OUTSIDE
            groups[g].functions[name] = (insns, cycles, calls)
        else:
            raise ValueError(f"{out}: unknown line {line[:40]!r}")
    return Attribution(fields["mode"], tuple(groups))


def match(attribution: Attribution, cases: Sequence[tuple[str, Sequence[
        tuple[str, npt.NDArray[np.uint32]]]]]) -> list[Matched]:
    """Each series of `cases` ((case id, [(series name, samples)]) in stream
    order, every case the firmware ran) with its group."""
    cycles = attribution.mode == "cycles"
    by_key: dict[tuple[int, int, int], list[Group]] = {}
    for g in attribution.groups:
        by_key.setdefault((g.count, g.sum_c if cycles else g.sum_i, g.hash), []).append(g)
    out: list[Matched] = []
    for ordinal, (case_id, series) in enumerate(cases):
        for name, samples in series:
            if len(samples) == 0:
                out.append(Matched(case_id, name, None, "no samples"))
                continue
            key = (len(samples), int(np.asarray(samples, dtype=np.uint64).sum()),
                   samples_hash(samples))
            found = by_key.get(key, [])
            own = [g for g in found if g.epoch == ordinal + 1]
            if len(own) == 1 or (not own and len(found) == 1):
                out.append(Matched(case_id, name, (own or found)[0]))
            elif len(own) > 1:
                out.append(Matched(case_id, name, None,
                                   "several read sites of the case gave the same samples"))
            else:
                out.append(Matched(case_id, name, None,
                                   "its samples are not the intervals between one pair of "
                                   "read sites (a span, or a difference of several reads)"))
    return out

"""The first screen's caveats, one line each: the stand-ins the shown
systems measured, QEMU's guest errors by message and the other warnings by
kind, the settings that differ and the failed checks."""

from __future__ import annotations

from collections import Counter, defaultdict

from rtosmeter.model import FAIL_MARK, STAND_IN_MARK, WARN_MARK, CaseResult, RunView
from rtosmeter.reports.document.answer import SETTINGS_NAMED, Answer
from rtosmeter.vocabulary import system


def guest_errors(view: RunView, keys: list[str]) -> list[str]:
    """QEMU's guest errors by message: which systems, how many per execution."""
    per: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    runs: dict[str, int] = defaultdict(int)
    for w in view.warnings:
        if w.system in keys and w.kind == "guest-error":
            runs[w.system] += 1
            for msg, n in w.messages:
                per[msg][w.system].append(n)
    out = []
    for msg, by in per.items():
        counts = [n for ns in by.values() for n in ns]
        execs = sum(len(ns) for ns in by.values())
        each = f"{min(counts)}" if min(counts) == max(counts) else \
            f"{min(counts)} to {max(counts)}"
        who = ", ".join(f"{k.split('/', 1)[0]}/{k.rsplit('/', 1)[1]}" for k in by)
        out.append(f"{WARN_MARK} QEMU guest error \"{msg}\": {who}, {each} per execution "
                   f"({execs} execution{'s' * (execs != 1)}).")
    return out


def stand_in_caveats(cases: list[CaseResult], shown: set[str]) -> list[str]:
    """One line per stand-in: the systems shown that measured it, and where."""
    stand_ins: dict[str, tuple[dict[str, None], dict[str, None]]] = {}
    for c in cases:
        for cap, what in sorted(c.stand_ins.items()) if system(c) in shown else ():
            who, where = stand_ins.setdefault(f"{cap} measured as {what}", ({}, {}))
            who[f"{c.port}/{c.profile}"] = None
            where[c.case_id] = None
    return [f"{STAND_IN_MARK} {what}: {', '.join(who)} ({', '.join(where)})"
            for what, (who, where) in stand_ins.items()]


def warning_caveats(view: RunView, shown: set[str]) -> list[str]:
    """QEMU's guest errors, then the count of the other warnings by kind."""
    out = guest_errors(view, sorted(shown))
    other = [w for w in view.warnings if w.system in shown and w.kind != "guest-error"]
    if other:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(Counter(w.kind for w in other).items()))
        out.append(f"{WARN_MARK} {len(other)} warnings about figures ({kinds}): listed under "
                   "Warnings.")
    return out


def answer_caveats(answer: Answer) -> list[str]:
    """The settings that differ and the failed checks."""
    out = []
    if answer.settings:
        names = [k for k, _ in answer.settings]
        out.append(f"{len(names)} setting(s) differ between the compared builds: "
                   + ", ".join(names[:SETTINGS_NAMED]) + (", …" if len(names) > SETTINGS_NAMED
                                                          else "") + " (see Configuration).")
    if answer.failed_checks:
        out.append(f"{FAIL_MARK} {len(answer.failed_checks)} failed: "
                   + "; ".join(answer.failed_checks[:2])
                   + ("; …" if len(answer.failed_checks) > 2 else "") + ".")
    return out

"""The progress of a run on stderr: a bar with ETA on a terminal, one plain
line per finished build or execution elsewhere (CI logs), plain (no colour,
no bold) under NO_COLOR, and the run's warnings and notes.
Not a report (those are rtosmeter.reports): it is gone when the run ends."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich import progress as bars
from rich.console import Console


class Progress:
    """The bar (None when quiet) and the lines printed above it."""

    def __init__(self, total: int, quiet: bool | None = None,
                 console: Console | None = None) -> None:
        plain = bool(os.environ.get("NO_COLOR"))
        self.console = console or Console(stderr=True, no_color=plain)
        # Not a terminal (a CI log) and not asked to be quiet: no bar, which
        # would be invisible there, but one plain line per finished step.
        self.lines = quiet is None and not sys.stderr.isatty()
        if quiet is None:
            quiet = not sys.stderr.isatty()
        self.done = 0
        self.count = total
        self.started = time.monotonic()
        self.quiet = quiet
        self.bar: bars.Progress | None = None
        self.task: Any = None
        if not quiet:
            style = "none" if plain else "bold"
            self.bar = bars.Progress(
                bars.TextColumn("{task.description}", style=style),
                bars.BarColumn(style="none" if plain else "bar.back",
                               complete_style="none" if plain else "bar.complete",
                               finished_style="none" if plain else "bar.finished"),
                bars.MofNCompleteColumn(), bars.TimeElapsedColumn(), bars.TextColumn("eta"),
                bars.TimeRemainingColumn(), console=self.console, transient=True)
            self.task = self.bar.add_task("starting", total=total)

    @contextmanager
    def running(self) -> Iterator[Progress]:
        if self.bar is None:
            yield self
            return
        with self.bar:
            yield self

    def total(self, total: int) -> None:
        self.count = total
        if self.bar is not None:
            self.bar.update(self.task, total=total)

    def current(self, text: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=text)

    def advance(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, n)

    def finished(self, text: str) -> None:
        """A build or execution ended: a line of its own off a terminal."""
        self.done += 1
        if self.lines:
            elapsed = time.monotonic() - self.started
            self.console.print(f"[{self.done}/{self.count} {elapsed:.0f} s] {text}",
                               markup=False, highlight=False, soft_wrap=True)

    def warn(self, text: str) -> None:
        self.console.print(f"warning: {text}", markup=False, highlight=False,
                           soft_wrap=self.lines)  # a CI log: one line, not 80 columns

    def note(self, text: str) -> None:
        """Not a problem, but worth saying (a combination not run here)."""
        self.console.print(f"note: {text}", markup=False, highlight=False,
                           soft_wrap=self.lines)

"""Report formats: one module per format, found by name in this package.

A format module exposes `render(view: RunView) -> str` and `SUFFIX` (the
file extension its output is saved with, e.g. ".md"). Adding a format is
adding a module here; nothing else is edited.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Protocol, cast

from rtosmeter.errors import UserError
from rtosmeter.model import RunView


class ReportFormat(Protocol):
    SUFFIX: str

    def render(self, view: RunView) -> str: ...


def _names() -> list[str]:
    """Modules of this package that define a top-level `render` (helpers do not)."""
    names = []
    for m in pkgutil.iter_modules(__path__):
        source = Path(__path__[0]) / f"{m.name}.py"
        if not m.name.startswith("_") and source.is_file() and \
                "\ndef render(" in source.read_text(encoding="utf-8"):
            names.append(m.name)
    return sorted(names)


class _Formats(Mapping[str, ReportFormat]):
    """name -> format module, imported on first use (html pulls in matplotlib)."""

    def __getitem__(self, name: str) -> ReportFormat:
        if name not in _names():
            raise KeyError(name)
        return cast(ReportFormat, importlib.import_module(f"{__name__}.{name}"))

    def __iter__(self) -> Iterator[str]:
        return iter(_names())

    def __len__(self) -> int:
        return len(_names())


FORMATS: Mapping[str, ReportFormat] = _Formats()


def get_format(name: str) -> ReportFormat:
    """The format called `name`; an unknown name lists the valid ones."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UserError(f"unknown report format {name!r}", "--format",
                        f"Use one of: {', '.join(FORMATS)}") from None


def render(view: RunView, name: str) -> str:
    return get_format(name).render(view)

"""A strict reader for one TOML file and its tables: typed keys, and an
error naming the file and key for a key nobody read (a misspelling).

Its own module so that definitions/ and config.py both read TOML through
it without importing each other.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from rtosmeter.errors import UserError
from rtosmeter.numbers import MAX_INT, finite, plain

T = TypeVar("T")


class TomlTable:
    """Reads typed keys from one table and rejects the keys nobody read."""

    def __init__(self, data: dict[str, Any], path: Path, prefix: str = "") -> None:
        self.data = data
        self.path = path
        self.prefix = prefix
        self.used: set[str] = set()

    def _line_of(self, key: str) -> str:
        """`path:line` of the first `key = ...` in the file (tomllib keeps no
        positions), else the path."""
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return str(self.path)
        for number, line in enumerate(lines, 1):
            if pattern.match(line):
                return f"{self.path}:{number}"
        return str(self.path)

    def _unknown(self) -> list[str]:
        return [k for k in self.data if k not in self.used]

    def _get(self, key: str, kind: type[T] | tuple[type, ...], what: str, default: Any) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is REQUIRED:
                # `port = [...]` for ports: name the misspelt key, not only the missing one
                near = difflib.get_close_matches(key, self._unknown(), 1, 0.6)
                if near:
                    raise UserError(f"unknown key '{self.prefix}{near[0]}' (missing key "
                                    f"'{self.prefix}{key}')", self._line_of(near[0]),
                                    f"Did you mean {key} = <{what}>?")
                raise UserError(f"missing key '{self.prefix}{key}'", str(self.path),
                                f"Add {key} = <{what}>")
            return default
        value = self.data[key]
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is int)
        if not ok:
            raise UserError(f"'{self.prefix}{key}' must be {what}, not {value!r}",
                            str(self.path), f"Fix the value of {key}")
        return value

    def text(self, key: str, default: Any = None) -> Any:
        return self._get(key, str, "a string", default)

    def num(self, key: str, default: Any = None, low: int = 0, high: int = MAX_INT) -> Any:
        """A whole number from `low` to `high` (numbers.finite)."""
        value = self._get(key, int, "an integer", default)
        return value if key not in self.data else self._checked(key, value, low, high, True)

    def seconds(self, key: str, default: float, low: float, high: float) -> float:
        """A finite number (of seconds) from `low` to `high`: `nan` or `inf`
        would turn a limit off."""
        value = self._get(key, (int, float), "a number of seconds", default)
        return float(self._checked(key, value, low, high, False))

    def _checked(self, key: str, value: Any, low: float, high: float, integer: bool
                 ) -> float | int:
        try:
            return finite(value, low, high, integer)
        except ValueError as exc:
            raise UserError(f"'{self.prefix}{key}': {exc}", str(self.path),
                            f"Give {key} a {'whole ' if integer else ''}number from "
                            f"{plain(low)} to {plain(high)}") from None

    def flag(self, key: str, default: Any = None) -> Any:
        return self._get(key, bool, "true or false", default)

    def strs(self, key: str, default: Any = None) -> Any:
        value = self._get(key, (list, str), "a list of strings", default)
        if isinstance(value, str):
            return (value,)
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                raise UserError(f"'{self.prefix}{key}' must be a list of strings",
                                str(self.path), f"Fix the value of {key}")
            return tuple(value)
        return value

    def table(self, key: str) -> TomlTable | None:
        value = self._get(key, dict, "a table", None)
        return None if value is None else TomlTable(value, self.path, f"{self.prefix}{key}.")

    def tables(self, key: str) -> list[TomlTable]:
        value = self._get(key, list, "an array of tables ([[...]])", [])
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise UserError(f"'{self.prefix}{key}' must be an array of tables",
                                str(self.path), f"Write [[{key}]] sections")
            out.append(TomlTable(item, self.path, f"{self.prefix}{key}[{i}]."))
        return out

    def named_tables(self, key: str) -> dict[str, TomlTable]:
        """A table of tables ([key.<name>] sections), by name."""
        sub = self.table(key)
        if sub is None:
            return {}
        out = {}
        for name in list(sub.data):
            table = sub.table(name)
            assert table is not None
            out[name] = table
        return out

    def str_map(self, key: str) -> dict[str, str]:
        sub = self.table(key)
        if sub is None:
            return {}
        return {k: sub.text(k) for k in list(sub.data)}

    def done(self) -> None:
        extra = self._unknown()
        if extra:
            key = extra[0]
            raise UserError(
                f"unknown key '{self.prefix}{key}'",
                self._line_of(key),
                f"Remove it or fix the spelling; known keys here: "
                f"{', '.join(sorted(self.used))}",
            )


REQUIRED = object()  # the default of a key that must be given


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise UserError(f"cannot read the file ({exc.strerror})", str(path),
                        "Check the path") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"invalid TOML ({exc})", str(path), "Fix the syntax") from exc
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise UserError("invalid TOML (arrays or tables nested too deep to read)", str(path),
                        "Nest them less deep") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"not UTF-8 text (byte {exc.start}: {exc.reason})", str(path),
                        "Save the file as UTF-8, as TOML requires") from exc

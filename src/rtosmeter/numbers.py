"""The one validated reader for every number rtosmeter takes from outside:
a firmware's stream, a TOML file, an option.

`str.isdigit()`, `int()` and `float()` alone take "²", Arabic-Indic digits,
"+2", "1_0", " 7", numbers of thousands of digits (ValueError from `int()`,
OverflowError from SQLite) and "nan"/"inf" (which disable a limit or turn
every time into 0). Here a number is ASCII digits (a decimal point where a
fraction is allowed), finite and in a stated range, or a ValueError whose
text says why; `read_*` turn that into a UserError naming where it came from.
"""

from __future__ import annotations

import math

from rtosmeter.errors import UserError

DIGITS = "0123456789"
MAX_DIGITS = 19  # a whole number: at most 19 ASCII digits ...
MAX_INT = (1 << 63) - 1  # ... and no more than SQLite's INTEGER holds
MAX_DECIMAL_CHARS = 40  # a decimal with a fraction: digits, one point


def shown(text: str) -> str:
    """`text` quoted for a message, a long one cut."""
    return repr(text[:24] + "…") if len(text) > 24 else repr(text)


def plain(value: float) -> str:
    """A bound or a value as a message shows it: 10**12 in full, 0.5 as 0.5."""
    return str(value) if isinstance(value, int) or not value.is_integer() else str(int(value))


def brief(value: object) -> str:
    """A value as a message echoes it: a long one (a 309-digit number) cut,
    with its length."""
    text = plain(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else repr(value)
    return f"{text[:16]}… ({len(text)} characters)" if len(text) > 24 else text


def _range(value: float, low: float, high: float) -> None:
    if value > high:
        raise ValueError(f"{brief(value)} is larger than {plain(high)}")
    if value < low:
        raise ValueError(f"{brief(value)} is smaller than {plain(low)}")


def whole(text: str, low: int = 0, high: int = MAX_INT) -> int:
    """A whole number of ASCII digits from `low` to `high`."""
    if not text or len(text) > MAX_DIGITS or text.strip(DIGITS):
        raise ValueError(f"{shown(text)} is not a number of at most {MAX_DIGITS} ASCII digits")
    value = int(text)
    if value > high:
        raise ValueError(f"{value} is larger than {high}")
    if value < low:
        raise ValueError(f"{value} is smaller than {low}")
    return value


def whole_or_none(text: str, low: int = 0, high: int = MAX_INT) -> int | None:
    """`whole`, None for anything else (an optional figure a report shows)."""
    try:
        return whole(text, low, high)
    except ValueError:
        return None


def decimal(text: str, low: float, high: float) -> float:
    """A number of ASCII digits with an optional fraction (`12`, `0.5`),
    finite, from `low` to `high`."""
    head, dot, tail = text.partition(".")
    if (not head or len(text) > MAX_DECIMAL_CHARS or head.strip(DIGITS)
            or (dot and (not tail or tail.strip(DIGITS)))):
        raise ValueError(f"{shown(text)} is not a number of ASCII digits (e.g. 12 or 0.5)")
    value = float(text)
    _range(value, low, high)
    return value


def finite(value: object, low: float, high: float, integer: bool = False) -> float | int:
    """A number already typed (a TOML value): an int, or a finite float when
    `integer` is false, from `low` to `high`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            integer and not isinstance(value, int)):
        raise ValueError(f"{brief(value)} is not {'a whole number' if integer else 'a number'}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{brief(value)} is not a finite number")
    _range(value, low, high)
    return value


def read_whole(text: str, where: str, what: str, low: int = 0, high: int = MAX_INT,
               fix: str = "") -> int:
    """`whole`, its error a UserError naming `what` and `where`."""
    try:
        return whole(text.strip(), low, high)
    except ValueError as exc:
        raise UserError(f"{what}: {exc}", where, fix or f"Give a whole number from {low} "
                        f"to {high}") from None


def read_decimal(text: str, where: str, what: str, low: float, high: float,
                 fix: str = "") -> float:
    """`decimal`, its error a UserError naming `what` and `where`."""
    try:
        return decimal(text.strip(), low, high)
    except ValueError as exc:
        raise UserError(f"{what}: {exc}", where, fix or f"Give a number from {plain(low)} "
                        f"to {plain(high)}") from None

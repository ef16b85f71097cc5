"""Names from the result stream made harmless for each output.

Case ids, series names, reasons and META values come from the firmware:
data, never markup, formulas or terminal commands. Every format passes them
through one of these before writing them (HTML relies on Jinja2's
autoescape; charts get unique file names from `chart_name`).
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
import unicodedata

from markupsafe import Markup

# Markdown punctuation that can start markup inside one line: links and
# images ([, ], !), emphasis, code, the cell separator, and the escape itself
# (parentheses only matter after "]", which is escaped).
_MD_SPECIAL = re.compile(r"([\\`*\[\]!|])")
# A spreadsheet reads a cell starting with one of these as a formula
# (OWASP "CSV injection"); a tab or carriage return first does too in some.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# ASCII's control characters but line breaks and tabs: most text is ASCII,
# and a class of 3 ranges is searched far faster than the Unicode one.
_ASCII_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LINES = re.compile("[\n\t\r]")


@functools.cache
def _controls() -> re.Pattern[str]:
    """Every control and format character (Unicode Cc, Cf) but line breaks
    and tabs, as ranges of code points: found once, on first use."""
    found = [c for c in range(sys.maxunicode + 1)
             if unicodedata.category(chr(c)) in ("Cc", "Cf") and chr(c) not in "\n\t\r"]
    ranges: list[list[int]] = []
    for c in found:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return re.compile("[" + "".join(re.escape(chr(a)) if a == b else
                                    f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                    for a, b in ranges) + "]")


def strip_controls(text: str, keep_lines: bool = False) -> str:
    """Without control characters (ESC sequences, OSC, bell, C1 codes, bidi
    overrides such as U+202E): a line break or tab becomes a space, unless
    `keep_lines` (markup, an SVG, whose lines are its own)."""
    text = (_ASCII_CONTROLS if text.isascii() else _controls()).sub("", text)
    return text if keep_lines else _LINES.sub(" ", text)


def html_safe(value: object) -> object:
    """For the HTML page (Jinja2's `finalize`, before its autoescape): text
    without control characters; markup (an SVG) keeps its lines."""
    if isinstance(value, Markup):
        return Markup(strip_controls(str(value), keep_lines=True))
    return strip_controls(value) if isinstance(value, str) else value


def terminal_safe(text: str) -> str:
    """For the terminal: nothing the terminal would interpret."""
    return strip_controls(text)


def markdown_safe(text: str) -> str:
    """For a Markdown table cell or heading: one line, markup escaped."""
    text = _MD_SPECIAL.sub(r"\\\1", strip_controls(text))
    return text.replace("<", "&lt;").replace(">", "&gt;")


def csv_safe(value: object) -> object:
    """For a CSV cell: text a spreadsheet would run as a formula gets a
    leading apostrophe (shown as text, the usual neutralisation)."""
    if isinstance(value, str):
        value = strip_controls(value)
        if value.startswith(_FORMULA_START):
            return "'" + value
    return value


_HASHED = re.compile(r"-[0-9a-f]{8}$")  # what chart_name appends


def chart_name(text: str) -> str:
    """A file name stem and HTML id for `text`: readable, and unique, as
    names differing only in characters a file name cannot hold (`lat.x<y`,
    `lat.x>y`) get different hashes."""
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "chart"
    if readable == text and not _HASHED.search(text):  # "lat.x-y-<8 hex>" is one made here
        return text
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}"

"""The one error type for mistakes a user can fix (exit 1, no traceback).

Every message reads `<what failed> in <where>. <how to fix>`; the CLI adds the
`Error: ` prefix. Anything else that escapes is a bug and shows a traceback
with `--debug`.
"""

from __future__ import annotations

USER_ERROR_EXIT = 1  # user errors, usage errors and tool-chain failures
REGRESSION_EXIT = 2  # `compare`'s gate failed (gate.py): the one other non-zero status


class UserError(Exception):
    """A problem the user can fix: bad option, bad file, missing tool or tree."""

    def __init__(self, what: str, where: str = "", fix: str = "") -> None:
        self.what = what
        self.where = where
        self.fix = fix
        super().__init__(self.message)

    @property
    def message(self) -> str:
        text = self.what
        if self.where:
            text += f" in {self.where}"
        text += "."
        if self.fix:
            text += f" {self.fix.rstrip('.')}."
        return text

    def __str__(self) -> str:
        return self.message


class ToolMissing(UserError):
    """A program the harness needs is not installed; names the package."""

    def __init__(self, program: str, where: str, package: str) -> None:
        super().__init__(
            f"{program} not found",
            where,
            f"Install it with `apt-get install {package}` (or run scripts/install.sh)",
        )
        self.program = program
        self.package = package

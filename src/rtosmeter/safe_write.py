"""One writer for every file rtosmeter writes outside its store (site pages,
reports, exports, a calibration): through a temporary file in the target's
folder and an atomic replace, so a failure leaves the old file or none,
never half of one; and never through a symlink, at the file or at any folder
from the output root down to it (a site folder linked to the store, or a
page linked to another file, would have it overwritten)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from rtosmeter.errors import UserError


def _refuse_links(path: Path, root: Path) -> None:
    """Every existing part from `root` down to `path`, both included, is no symlink."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise UserError(f"{path} is outside the output folder {root}", str(path),
                        "Write inside the output folder") from None
    here = root
    for part in ("", *parts):
        here = here / part if part else here
        if here.is_symlink():
            raise UserError(f"{here} is a symbolic link: rtosmeter writes no file through one",
                            str(here), "Remove the link, or write to another folder")


def write_text(path: Path, text: str, root: Path | None = None) -> None:
    """Write `text` to `path` atomically; `root` (default: its folder) is
    where the output starts, links are refused from there down."""
    root = root if root is not None else path.parent
    _refuse_links(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_links(path, root)  # a link raced in while the folders were made
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # as a plain write leaves a page: readable (mkstemp's is 0600)
        os.replace(tmp, path)  # replaces the name: never writes through a link there
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

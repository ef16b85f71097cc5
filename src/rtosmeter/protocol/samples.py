"""Samples on an `S` line: base-32 digits, most significant first, the
last from the final alphabet. Decoded with numpy (one vectorised pass per
line), because a stream can carry a million of them, and they stay arrays up
to the store."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

FINAL = "0123456789abcdefghijklmnopqrstuv"
CONTINUATION = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$&+-"

# byte -> digit value (0..31), or -1 for a byte outside both alphabets;
# byte -> 1 when it ends a sample (final alphabet).
_DIGIT = np.full(256, -1, dtype=np.int16)
_IS_FINAL = np.zeros(256, dtype=np.bool_)
for _i, _c in enumerate(FINAL):
    _DIGIT[ord(_c)] = _i
    _IS_FINAL[ord(_c)] = True
for _i, _c in enumerate(CONTINUATION):
    _DIGIT[ord(_c)] = _i


def encode_samples(samples: Iterable[int]) -> str:
    """Base-32 digits, most significant first, last digit from `FINAL`."""
    out: list[str] = []
    for value in samples:
        if not 0 <= value <= 0xFFFFFFFF:
            raise ValueError(f"sample {value} is not an unsigned 32-bit value")
        digits = [FINAL[value & 31]]
        value >>= 5
        while value:
            digits.append(CONTINUATION[value & 31])
            value >>= 5
        out.append("".join(reversed(digits)))
    return "".join(out)


def decode_samples_array(text: bytes | str) -> npt.NDArray[np.uint32]:
    """Decode a run of samples; ValueError says what is wrong and where."""
    raw = text.encode("latin-1", "replace") if isinstance(text, str) else text
    if not raw:
        return np.zeros(0, dtype=np.uint32)
    b = np.frombuffer(raw, dtype=np.uint8)
    digit = _DIGIT[b]
    bad = np.flatnonzero(digit < 0)
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"character {raw[i:i + 1]!r} at position {i} is not a sample digit")
    final = _IS_FINAL[b]
    if not final[-1]:
        raise ValueError("the last sample has no final digit")
    ends = np.flatnonzero(final)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts + 1
    if lengths.max() > 7:
        i = int(np.flatnonzero(lengths > 7)[0])
        raise ValueError(f"sample {i} has {int(lengths[i])} digits (at most 7)")
    multi = lengths > 1
    if np.any(digit[starts[multi]] == 0):
        i = int(np.flatnonzero(multi & (digit[starts] == 0))[0])
        raise ValueError(f"sample {i} has a leading zero digit")
    # Each digit's weight is 32 ** (its distance from the sample's last digit).
    owner = np.repeat(np.arange(ends.size), lengths)
    shift = (ends[owner] - np.arange(b.size)) * 5
    values = np.add.reduceat(digit.astype(np.uint64) << shift.astype(np.uint64), starts)
    if np.any(values > 0xFFFFFFFF):
        i = int(np.flatnonzero(values > 0xFFFFFFFF)[0])
        raise ValueError(f"sample {i} does not fit in 32 bits")
    return values.astype(np.uint32)


def decode_samples(text: bytes | str) -> list[int]:
    """`encode_samples` reversed, as Python ints."""
    result: list[int] = decode_samples_array(text).tolist()
    return result

"""rtosmeter.axes: the coordinates beyond port, target and profile."""

from __future__ import annotations

from rtosmeter import axes


def test_defaults_keep_the_old_names_and_others_extend_them() -> None:
    assert axes.name("freertos", "qemu-mps2-an386", "default", {}) == \
        "freertos/qemu-mps2-an386/default"
    assert axes.name("freertos", "host", "quick", {"toolchain": "gcc"}) == "freertos/host/quick"
    assert axes.name("freertos", "host", "quick", {"toolchain": "clang"}) == \
        "freertos/host/quick+clang"


def test_canonical_fills_the_defaults_and_keeps_unknown_axes() -> None:
    """A store written by a newer rtosmeter may hold an axis this one does
    not know: it still tells builds apart."""
    assert axes.canonical({}) == axes.canonical({"toolchain": "gcc"}) == '{"toolchain": "gcc"}'
    assert axes.complete({"version": "V11"}) == {"toolchain": "gcc", "version": "V11"}
    assert axes.suffix({"toolchain": "clang", "version": "V11"}) == "+clang+V11"


def test_order_puts_the_default_first() -> None:
    names = sorted([{"toolchain": "clang"}, {"toolchain": "gcc"}, {"toolchain": "armclang"}],
                   key=axes.order)
    assert [n["toolchain"] for n in names] == ["gcc", "armclang", "clang"]

"""Every port's rm_* functions have the signatures of the porting layer.

A port of a third-party RTOS cannot be compiled without that RTOS's tree
(absent in CI), but its entry points can: each `rm_*` definition of a call
the porting headers declare, in the port's C files and, inline, in its
rm_port_inline.h, is copied, header line only, into a C file that includes
rtosmeter's headers, and the real compiler checks it against the prototypes
there ("conflicting types" fails the test). Caught this way: a port written
against an older porting layer.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rtosmeter.catalog import load_caps
from rtosmeter.definitions import load_port

ROOT = Path(__file__).resolve().parents[1]
PORTS = sorted(p for p in (ROOT / "ports").iterdir() if (p / "port.toml").is_file())

# A definition: return type, name, parameter list, then the opening brace;
# in a C file not static, in the inline header behind its inline macro.
DEFINITION = re.compile(
    r"^(?!static\b)([A-Za-z_][\w \t\*]*?\b(rm_\w+)\s*\([^;{}()]*\))\s*\{", re.MULTILINE)
INLINE_DEFINITION = re.compile(
    r"^(?:RM_\w+_INLINE|static\s+inline(?:\s+__attribute__\(\(\w+\)\))?)\s+"
    r"([A-Za-z_][\w \t\*]*?\b(rm_\w+)\s*\([^;{}()]*\))\s*\{", re.MULTILINE)
INCLUDE = ROOT / "bench" / "include" / "rtosmeter"
PROTOTYPE_HEADERS = ("rtosmeter/bench.h",)  # includes port.h and target.h
# The calls the headers declare; a port's own helpers are not checked.
DECLARED = {
    name
    for header in ("port.h", "target.h", "bench.h")
    for name in re.findall(r"\b(rm_\w+)\s*\(", (INCLUDE / header).read_text(encoding="utf-8"))
}


# port.h's generator of HEAP's four calls (a _raw / _rc pair each) for a
# malloc/free-like allocator; an invocation in an inline header is read as the
# four definitions it expands to, each holding the kernel call it names.
HEAP_MACRO = re.compile(
    r"^#define RM_HEAP_MALLOC_LIKE\(SPEC, ALLOC, FREE\)((?:.*\\\n)*.*)$", re.MULTILINE)
HEAP_USE = re.compile(r"^RM_HEAP_MALLOC_LIKE\(([^,()]+),\s*(\w+),\s*(\w+)\)", re.MULTILINE)


def expand_heap_macro(code: str) -> str:
    """code with each RM_HEAP_MALLOC_LIKE(spec, alloc, free) line replaced by
    what the macro expands to (its spec written `static inline`)."""
    found = HEAP_MACRO.search((INCLUDE / "port.h").read_text(encoding="utf-8"))
    assert found, "port.h no longer defines RM_HEAP_MALLOC_LIKE(SPEC, ALLOC, FREE)"
    body = re.sub(r"\s*\\\n", "\n", found.group(1))
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.DOTALL)

    def expand(use: re.Match[str]) -> str:
        text = re.sub(r"\bALLOC\b", use.group(2), body)
        text = re.sub(r"\bFREE\b", use.group(3), text)
        return re.sub(r"^\s*SPEC\b", "static inline", text, flags=re.MULTILINE)

    return HEAP_USE.sub(expand, code)


def _code(path: Path) -> str:
    code = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return expand_heap_macro(code)


def definitions(port: Path) -> list[tuple[str, str]]:
    found = [
        (m.group(2), " ".join(m.group(1).split()))
        for source in sorted(port.rglob("*.c"))  # with a target layer of its own (native_sim/)
        for m in DEFINITION.finditer(_code(source))
    ]
    inline = port / "rm_port_inline.h"
    if inline.is_file():
        found += [(m.group(2), " ".join(m.group(1).split()))
                  for m in INLINE_DEFINITION.finditer(_code(inline))]
    return [(name, header) for name, header in found if name in DECLARED]


def test_every_port_defines_porting_layer_calls() -> None:
    for port in PORTS:
        names = {name for name, _ in definitions(port)}
        assert "rm_port_describe" in names, f"{port.name} lacks rm_port_describe"


@pytest.mark.parametrize("port", PORTS, ids=[p.name for p in PORTS])
def test_no_port_defines_a_composed_call(port: Path) -> None:
    """port.h composes rm_<call>() from the port's rm_<call>_raw and _rc; a
    port that still defines rm_<call>() itself was written against the older
    porting layer (its call would shadow nothing: the measured cases use the
    _raw half)."""
    found = [m.group(2) for source in sorted(port.rglob("*.c"))
             for m in DEFINITION.finditer(_code(source))]
    inline = port / "rm_port_inline.h"
    if inline.is_file():
        found += [m.group(2) for m in INLINE_DEFINITION.finditer(_code(inline))]
    composed = sorted(n for n in found if f"{n}_raw" in DECLARED)
    assert not composed, (
        f"{port.name} defines composed calls (define their _raw and _rc): {composed}")


@pytest.mark.parametrize("port", PORTS, ids=[p.name for p in PORTS])
def test_nvic_hook_is_declared_where_defined(port: Path) -> None:
    """A port defines the target's NVIC calls (rm_port_irq_enable/disable,
    targets/common/cortex-m/cm.h) exactly when its port.toml declares
    `owns_nvic`: otherwise the firmware has two definitions, or none."""
    found = {m.group(2) for source in sorted(port.rglob("*.c"))
             for m in DEFINITION.finditer(_code(source))}
    defines = {"rm_port_irq_enable", "rm_port_irq_disable"} & found
    owns = load_port(port / "port.toml", load_caps(ROOT)).owns_nvic
    assert defines == ({"rm_port_irq_enable", "rm_port_irq_disable"} if owns else set()), (
        f"{port.name}: port.toml owns_nvic = {str(owns).lower()}, but its C files define "
        f"{sorted(defines) or 'neither'} of rm_port_irq_enable/disable")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("port", PORTS, ids=[p.name for p in PORTS])
def test_port_signatures_match_the_headers(port: Path, tmp_path: Path) -> None:
    defs = definitions(port)
    assert defs, f"no rm_* definitions found in {port}"
    config = tmp_path / "rm_build_config.h"
    config.write_text("#define RM_PORT_CAPS 0ul\n#define RM_SAMPLES 16u\n#define RM_BATCH 16u\n")
    check = tmp_path / "conformance.c"
    lines = [f'#include "{h}"' for h in PROTOTYPE_HEADERS]
    lines += [f"{header};" for _, header in defs]
    check.write_text("\n".join(lines) + "\n")
    result = subprocess.run(
        ["gcc", "-std=c11", "-O2", "-fsyntax-only", "-Wall", "-Werror",
         f"-I{ROOT / 'bench' / 'include'}", f"-I{tmp_path}", str(check)],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, (
        f"{port.name}: a definition differs from the porting layer:\n{result.stderr}")


@pytest.mark.slow
def test_a_wrong_signature_is_caught(tmp_path: Path) -> None:
    """The check itself can fail: a definition with a wrong parameter type."""
    port = tmp_path / "broken"
    port.mkdir()
    (port / "port.c").write_text("int rm_thread_sleep(int64_t ticks)\n{\n    return 0;\n}\n")
    (config := tmp_path / "rm_build_config.h").write_text("#define RM_PORT_CAPS 0ul\n")
    check = tmp_path / "c.c"
    check.write_text('#include "rtosmeter/bench.h"\n' +
                     "".join(f"{h};\n" for _, h in definitions(port)))
    result = subprocess.run(
        ["gcc", "-std=c11", "-O2", "-fsyntax-only", f"-I{ROOT / 'bench' / 'include'}",
         f"-I{config.parent}", str(check)], capture_output=True, text=True, check=False)
    assert result.returncode != 0 and "conflicting types" in result.stderr


@pytest.mark.parametrize("port", PORTS, ids=[p.name for p in PORTS])
def test_inline_headers_define_only_porting_layer_calls(port: Path) -> None:
    """A misspelt inline call (rm_sem_give for rm_sem_signal) would leave the
    real call to the weak default: every rm_* an inline header defines must
    be a call the porting headers declare."""
    inline = port / "rm_port_inline.h"
    if not inline.is_file():
        pytest.skip(f"{port.name} has no rm_port_inline.h")
    names = {m.group(2) for m in INLINE_DEFINITION.finditer(_code(inline))}
    assert names <= DECLARED, f"{inline} defines undeclared calls: {sorted(names - DECLARED)}"



def untranslated(inline: Path) -> list[str]:
    """The measured calls an inline header defines as _raw without their _rc."""
    names = {m.group(2) for m in INLINE_DEFINITION.finditer(_code(inline))}
    return sorted(n for n in names if n.endswith("_raw") and f"{n[:-4]}_rc" not in names)


@pytest.mark.parametrize("port", PORTS, ids=[p.name for p in PORTS])
def test_inline_measured_calls_come_with_their_translator(port: Path) -> None:
    """A measured call's _raw returns the kernel's own status; defined inline
    it is the kernel call itself, and the weak default translator (which
    passes the status through as an RM code) would misread it: each inline
    rm_<call>_raw needs the port's inline rm_<call>_rc (port.h)."""
    inline = port / "rm_port_inline.h"
    if not inline.is_file():
        pytest.skip(f"{port.name} has no rm_port_inline.h")
    assert not untranslated(inline), f"{inline}: no translator (_rc) for {untranslated(inline)}"


def test_a_missing_translator_is_caught(tmp_path: Path) -> None:
    inline = tmp_path / "rm_port_inline.h"
    inline.write_text("static inline rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *m, "
                      "uint32_t t)\n{\n    return k_sem_take(o, t);\n}\n"
                      "static inline rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *m)"
                      "\n{\n    return 0;\n}\n"
                      "static inline int rm_sem_signal_rc(rm_raw_t raw)\n{\n    return 0;\n}\n")
    assert untranslated(inline) == ["rm_sem_wait_raw"]


def test_the_heap_generator_is_read_as_its_four_calls(tmp_path: Path) -> None:
    """A port that writes HEAP with port.h's RM_HEAP_MALLOC_LIKE is checked
    like one that writes the four calls out: the scan sees each definition,
    with the kernel call it holds."""
    inline = tmp_path / "rm_port_inline.h"
    inline.write_text("#define RM_X_INLINE static inline\n"
                      "RM_HEAP_MALLOC_LIKE(RM_X_INLINE, os_malloc, os_free)\n")
    code = _code(inline)
    names = sorted(m.group(2) for m in INLINE_DEFINITION.finditer(code))
    assert names == ["rm_heap_alloc_raw", "rm_heap_alloc_rc",
                     "rm_heap_free_raw", "rm_heap_free_rc"]
    assert "os_malloc(size)" in code and "os_free(mem)" in code
    assert not untranslated(inline)

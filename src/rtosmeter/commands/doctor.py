"""`rtosmeter doctor`: which tools, libraries and RTOS trees are here."""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rtosmeter import config
from rtosmeter.commands.common import echo_json, format_option
from rtosmeter.errors import UserError

if TYPE_CHECKING:
    from rtosmeter.definitions import Definitions, Port


@dataclass
class Check:
    name: str
    ok: bool
    detail: str  # version when ok, how to get it when not
    required: bool  # needed for the default host campaign


def _version(cmd: list[str]) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return ((proc.stdout or proc.stderr).splitlines() or [""])[0].strip()


def _program(name: str, package: str, required: bool, version_arg: str = "--version") -> Check:
    if shutil.which(name) is None:
        return Check(name, False, f"apt-get install {package}", required)
    return Check(name, True, _version([name, version_arg]) or "found", required)


def _dist_version(package: str) -> str:
    import importlib.metadata  # not for --help

    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "installed"


def _compiles(cc: str, flags: list[str]) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "t.c"
        src.write_text("int main(void) { return 0; }\n", encoding="utf-8")
        proc = subprocess.run([cc, *flags, str(src), "-o", str(Path(tmp) / "t")],
                              capture_output=True, check=False)
        return proc.returncode == 0


def qemu_checks(binary: str) -> list[Check]:
    """The QEMU runs would use: its version and plugin API, then the plugin
    started in it on a 3-instruction firmware, and what works with it
    (docs/qemu.md)."""
    from rtosmeter import qemu_binary, qemu_plugin  # not for --help

    qemu = qemu_binary.Qemu(binary)
    if not qemu.found:
        return [Check("qemu-system-arm", False, f"{binary} not found: apt-get install "
                      f"qemu-system-arm, or name one with --qemu or {qemu_binary.ENV}", False)]
    api = f"plugin API {qemu.api}" if qemu.api else "no plugin API rtosmeter uses"
    out = [Check("qemu-system-arm", True, f"QEMU {qemu.version} ({binary}; {api})", False)]
    with tempfile.TemporaryDirectory() as tmp:
        probe = qemu_binary.probe(qemu, Path(tmp))
    if not probe.loaded:
        fix = (qemu_binary.plugin_fix(probe.error) if qemu.plugin() is not None
               else "make -C plugins/qemu (or scripts/install.sh)")
        out.append(Check("QEMU plugin rmcycles", False, f"does not start: {probe.error}. "
                         f"Fix: {fix}; without it QEMU runs count timer ticks", False))
        return out
    exact = probe.instructions == qemu_binary.PROBE_INSTRUCTIONS
    out.append(Check("QEMU plugin rmcycles", exact,
                     f"{qemu.plugin()} (QEMU loads plugin API {probe.api.get('qemu_min')} to "
                     f"{probe.api.get('qemu_cur')})", False))
    out.append(Check("  exact instructions", exact,
                     f"{probe.instructions} of the probe's {qemu_binary.PROBE_INSTRUCTIONS}",
                     False))
    out.append(Check("  estimated cycles", probe.cycles is not None,
                     f"{probe.cycles} for the probe ({qemu_plugin.MODEL}, m4)", False))
    clock = qemu.idle_clock
    out.append(Check("  exact idle", clock != "none", {
        "guard72": "WFI sleeps exact and timed (7.2's timer layout, read and guarded)",
        "discon": "WFI sleeps timed at each interrupt (discontinuity callbacks)",
    }.get(clock, "wake-ups counted, time asleep not: "
                 + qemu_binary.untimed_reason(qemu.version)), False))
    out.append(Check("  attribution", True, "per function (rtosmeter explain)", False))
    out.append(Check("  wake-up causes", True, "by exception number (IPSR)"
                     if probe.api.get("ipsr") else "by handler address (this API reads no "
                     "registers: a handler several vectors share reads as one)", False))
    return out


def _tools() -> list[Check]:
    out = [
        _program("cmake", "cmake", True),
        _program("ninja", "ninja-build", True),
        _program("gcc", "gcc", True),
        _program("git", "git", False),
        _program("arm-none-eabi-gcc", "gcc-arm-none-eabi", False),
    ]
    if shutil.which("arm-none-eabi-gcc"):
        ok = _compiles("arm-none-eabi-gcc", ["-mcpu=cortex-m4", "-mthumb", "--specs=nosys.specs"])
        out.append(Check("newlib (arm-none-eabi)", ok,
                         "links" if ok else "apt-get install libnewlib-arm-none-eabi", False))
    out.append(_program("clang", "clang (toolchain clang)", False))
    out.append(_program("ld.lld", "lld (toolchain clang)", False))
    out.append(_program("dtc", "device-tree-compiler (the Zephyr port)", False))
    chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome")
                     if shutil.which(c)), None)
    out.append(Check("chromium", chromium is not None,
                     chromium or "apt-get install chromium (HTML report tests)", False))
    if shutil.which("gcc"):
        ok = _compiles("gcc", ["-m32"])
        out.append(Check("gcc-multilib (-m32)", ok,
                         "links" if ok else "apt-get install gcc-multilib", False))
    return out


def _python_modules(modules: tuple[tuple[str, str], ...], required: bool, why: str
                    ) -> list[Check]:
    out = []
    for module, package in modules:
        try:
            importlib.import_module(module)
            out.append(Check(f"python: {package}", True, _dist_version(package), required))
        except ImportError:
            out.append(Check(f"python: {package}", False, "pip install -e . in the venv "
                             f"(scripts/install.sh){why}", required))
    return out


def _sources(defs: Definitions) -> list[Check]:
    from rtosmeter.runners.board import board_host
    from rtosmeter.sources import describe_source

    boards = [t for t in defs.targets.values() if t.kind == "board"]
    out = [Check(f"board host: {name}", ok, detail, False)
           for name, (ok, detail) in board_host(boards).items()]
    for port in defs.ports.values():
        if port.source is None:
            continue
        found, text = describe_source(port)
        out.append(Check(f"source: {port.name}", found, text, False))
        out += _package_checks(port) if found else []
        if port.name == "mynewt":
            out += mynewt_checks(port)
    return out


def checks(defs: Definitions | None, qemu: str = "") -> list[Check]:
    from rtosmeter import qemu_binary

    out = _tools() + qemu_checks(qemu_binary.chosen(qemu or None))
    out += _python_modules((("click", "click"), ("rich", "rich"), ("elftools", "pyelftools"),
                            ("jinja2", "Jinja2"), ("matplotlib", "matplotlib"),
                            ("numpy", "numpy"), ("scipy", "scipy")), True, "")
    # Zephyr's build scripts run with rtosmeter's Python (the Zephyr port).
    out += _python_modules((("yaml", "PyYAML"), ("pykwalify", "pykwalify"),
                            ("packaging", "packaging"), ("jsonschema", "jsonschema"),
                            ("anytree", "anytree")), False,
                           ": Zephyr's build scripts need it")
    return out + (_sources(defs) if defs is not None else [])


# What the Mynewt port's build needs beside mynewt-core, found where
# ports/mynewt/app/CMakeLists.txt looks, in its order.
NEWT_ENV = "RTOSMETER_NEWT"
MBEDTLS_ENV = "RTOSMETER_MYNEWT_MBEDTLS"
NEWT_BUILD = ("build it from apache/mynewt-newt (`cd mynewt-newt && go build -o newt/newt "
              "./newt`) and put it on PATH, or set RTOSMETER_NEWT to the folder holding it")


def _mynewt_tree(port: Port) -> Path | None:
    from rtosmeter.sources import SourceMissing, find_source

    try:
        tree = find_source(port, {})
    except (SourceMissing, UserError):
        return None
    return tree.path if tree is not None else None


def _newt(tree: Path | None) -> Check:
    name = "newt (the mynewt port)"
    hint = os.environ.get(NEWT_ENV, "")
    if hint and not (Path(hint) / "newt").is_file():
        return Check(name, False, f"{NEWT_ENV}={hint} holds no newt program: {NEWT_BUILD}",
                     False)
    folders = [Path(hint)] if hint else []
    folders += [tree.parent / "mynewt-newt" / "newt"] if tree is not None else []
    found = next((str(f / "newt") for f in folders if os.access(f / "newt", os.X_OK)),
                 None) or shutil.which("newt")
    if found is None:
        return Check(name, False, f"not found: {NEWT_BUILD}", False)
    return Check(name, True, f"{_version([found, 'version']) or 'found'} ({found})", False)


def _mbedtls(port: Port, tree: Path | None) -> Check:
    name = "Mbed TLS (the mynewt port)"
    companions = port.source.companions if port.source is not None else ()
    pinned = next((c.tag for c in companions if c.name == "mbedtls"), "")
    hint = os.environ.get(MBEDTLS_ENV, "")
    candidates = [(Path(hint), MBEDTLS_ENV)] if hint else [
        (tree / "mbedtls", "sources fetch mynewt"),
        (tree.parent / "mynewt-mbedtls", "beside mynewt-core")] if tree is not None else []
    found = [(path, how) for path, how in candidates if (path / "library" / "aes.c").is_file()]
    if not found:
        looked = (f"looked in {', '.join(str(path) for path, _ in candidates)}" if candidates
                  else "no mynewt-core tree to look beside")
        fetch = "" if hint or tree is None else ", or run `rtosmeter sources fetch mynewt`"
        return Check(name, False, f"no Mbed TLS tree ({looked}): set {MBEDTLS_ENV} "
                     f"to a checkout of Mbed-TLS/mbedtls {pinned} (the version mynewt-core "
                     f"pins){fetch}", False)
    path, how = found[0]
    header = path / "include" / "mbedtls" / "build_info.h"
    m = re.search(r'MBEDTLS_VERSION_STRING\s+"([^"]+)"',
                  header.read_text(errors="replace") if header.is_file() else "")
    version = m.group(1) if m else "?"
    differs = f"; mynewt-core pins {pinned}" if m and version != pinned.lstrip("v") else ""
    return Check(name, True, f"{version} at {path} ({how}){differs}", False)


def mynewt_checks(port: Port) -> list[Check]:
    """newt and Mbed TLS, which the mynewt port's build needs beside its tree."""
    tree = _mynewt_tree(port)
    return [_newt(tree), _mbedtls(port, tree)]


def _package_checks(port: Port) -> list[Check]:
    """The git packages the port's RTOS build fetches (RIOT): served by a
    local mirror, or fetched from the internet at build time."""
    from rtosmeter.sources import find_source, git_packages

    tree = find_source(port, {})
    if tree is None:
        return []
    return [Check(f"package: {port.name}/{p.name}", p.ok, p.detail, False)
            for p in git_packages(port, tree.path)]


def config_lines() -> list[str]:
    """What the configuration files say (config.py): which files were read,
    the search path, RTOS trees and option defaults."""
    settings = config.load()
    lines = [f"config   {f}" for f in settings.files] or [
        f"config   none ({config.user_file()} or ./{config.PROJECT_FILE} would be read)"]
    lines += [f"path     {folder}  (from {where})"
              for folder, where in config.search_path(settings)]
    lines += [f"source   {name} = {s.path}  (from {s.file})"
              for name, s in sorted(settings.sources.items())]
    lines += [f"default  {command} --{key} {value}  (from {settings.defaults_file[command]})"
              for command, values in sorted(settings.defaults.items())
              for key, value in values.items()]
    return lines


@click.command("doctor")
@format_option(("table", "json"), help_text="Text, or JSON (the same checks; exit 1 all the "
                                             "same when a required tool is missing).")
@click.option("--qemu", metavar="PATH", help="Check this qemu-system-arm (default: "
              "$RTOSMETER_QEMU, else the one on PATH).")
def doctor(fmt: str, qemu: str | None) -> None:
    """Check the tools rtosmeter needs and say how to get each missing one."""
    from rtosmeter.definitions import Definitions  # the definitions: not for --help

    text = fmt == "table"
    if text:
        for line in config_lines():
            click.echo(line)
    try:
        defs: Definitions | None = Definitions.load()
        problem = ""
    except Exception as exc:  # the doctor must still report the tools
        problem = f"definitions: {exc}"
        defs = None
        if text:
            click.echo(f"MISSING  {problem}")
    results = checks(defs, qemu or "")
    missing = [c for c in results if c.required and not c.ok]
    if not text:
        echo_json({"config": config_lines(), "definitions_error": problem or None,
                   "checks": [asdict(c) for c in results], "missing_required": len(missing)})
    for c in results if text else ():
        mark = "ok     " if c.ok else ("MISSING" if c.required else "absent ")
        click.echo(f"{mark}  {c.name:<26} {c.detail}")
    if missing:
        raise click.ClickException(
            f"{len(missing)} required tool(s) missing in this machine. "
            "Run `bash scripts/install.sh`")
    if text:
        click.echo("Everything the default campaign needs is here.")

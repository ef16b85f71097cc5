"""Loading and strict validation of port/target/board/profile/campaign TOML."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtosmeter.catalog import PORT_H
from rtosmeter.definitions import DEFAULT_PARAMS, Definitions, Params
from rtosmeter.errors import UserError

PORT = """name = "demo"
description = "a demo port"
archs = ["host"]
caps = ["THREAD", "SEM"]
[unsupported]
NOTIFY = "no notifications"
"""
TARGET = """name = "host"
kind = "host"
arch = "host"
[counter]
name = "clock"
unit = "ns (host clock)"
hz = 1000000000
"""
PROFILE = """name = "default"
opt_flags = "-O2"
[params.host]
samples = 100
"""
TOOLCHAIN = """name = "gcc"
[targets.host]
cmake = "host.cmake"
compiler = "gcc"
[opt]
speed = "-O2"
size = "-Os"
debug = "-Og"
"""
CAMPAIGN = """name = "c"
[[run]]
ports = ["demo"]
targets = ["host"]
"""


def make_tree(tmp: Path, root: Path, **files: str) -> Path:
    """A definitions tree; keys are paths with '/' written as '__'."""
    (tmp / PORT_H).parent.mkdir(parents=True)
    shutil.copy(root / PORT_H, tmp / PORT_H)
    base = {"ports__demo__port.toml": PORT, "targets__host__target.toml": TARGET,
            "profiles__default.toml": PROFILE, "campaigns__c.toml": CAMPAIGN,
            "toolchains__gcc__toolchain.toml": TOOLCHAIN, "toolchains__gcc__host.cmake": ""}
    base.update(files)
    for key, text in base.items():
        path = tmp / key.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp


def test_real_tree_loads(root: Path) -> None:
    defs = Definitions.load(root)
    assert "posix" in defs.ports and "host" in defs.targets and "default" in defs.profiles
    assert defs.ports["posix"].supports(defs.targets["host"])
    mps2 = defs.targets["qemu-mps2-an386"]
    assert not defs.ports["posix"].supports(mps2) and defs.ports["threadx"].supports(mps2)
    assert not defs.ports["posix"].supports(defs.targets["qemu-microbit"])  # ARMv6-M
    assert defs.targets["host"].kind == "host"
    for port in defs.ports.values():
        assert set(port.caps) <= set(defs.caps)
    campaign = defs.campaign(None)
    assert campaign.file == root / "campaigns" / "default.toml"
    assert any("posix" in e.ports and "host" in e.targets for e in campaign.entries)


def test_demo_tree(tmp_path: Path, root: Path) -> None:
    defs = Definitions.load(make_tree(tmp_path, root))
    port = defs.port("demo")
    assert port.caps == ("THREAD", "SEM") and port.unsupported == {"NOTIFY": "no notifications"}
    assert port.supports(defs.target("host"))
    assert port.archs == ("host",)
    assert defs.target("host").counter.hz == 1_000_000_000
    params = defs.profile("default").params_for("host")
    assert params == Params(100, DEFAULT_PARAMS["host"].batch,
                            DEFAULT_PARAMS["host"].tm_period_ms,
                            DEFAULT_PARAMS["host"].tm_periods)
    campaign = defs.campaign(str(tmp_path / "campaigns" / "c.toml"))
    assert campaign.entries[0].ports == ("demo",) and campaign.entries[0].profiles == ("default",)
    assert defs.campaign("c").name == "c"  # by name from campaigns/
    assert campaign.entries[0].toolchains == ("gcc",)  # the default toolchain
    gcc = defs.toolchain("gcc")
    assert gcc.opt_flags(defs.profile("default")) == "-O2"  # opt_flags: as given
    use = gcc.use_for(defs.target("host"))
    assert use is not None and use.cmake == tmp_path / "toolchains/gcc/host.cmake"


def test_real_toolchains_map_every_intent_and_build_for_the_targets(root: Path) -> None:
    """gcc and clang build for every target (Cortex-M and host) and map each
    optimisation intent; a profile's intent picks each compiler's flags."""
    defs = Definitions.load(root)
    assert {"gcc", "clang"} <= set(defs.toolchains)
    for tc in (defs.toolchains["gcc"], defs.toolchains["clang"]):
        for target in defs.targets.values():
            assert tc.use_for(target) is not None, (tc.name, target.name)
        assert tc.opt_flags(defs.profile("default")) == tc.opt["speed"] == "-O2"
    assert defs.toolchains["clang"].uses["arm-none-eabi"].compiler == "clang"

@pytest.mark.parametrize(("key", "text", "message"), [
    ("ports__demo__port.toml", PORT + "colour = 'red'\n",
     "unknown capability 'colour' (key 'unsupported')"),
    ("ports__demo__port.toml", PORT.replace("[unsupported]", "extra = 1\n[unsupported]"),
     "unknown key 'extra'"),
    ("ports__demo__port.toml", PORT.replace("description", "descripton"),
     "unknown key 'descripton'"),
    ("targets__host__target.toml", TARGET + "bogus = 1\n", "unknown key 'counter.bogus'"),
    ("profiles__default.toml", PROFILE + "sample = 3\n", "unknown key 'params.host.sample'"),
    ("profiles__default.toml", PROFILE.replace("[params.host]", "[params.hots]"),
     "unknown key 'params.hots'"),
    ("campaigns__c.toml", CAMPAIGN + "prots = ['x']\n", "unknown key 'run[0].prots'"),
    ("toolchains__gcc__toolchain.toml", TOOLCHAIN.replace("compiler", "compilr"),
     "missing key 'targets.host.compiler'"),
    ("toolchains__gcc__toolchain.toml", TOOLCHAIN + "[packages]\ngcc = 1\n",
     "'packages.gcc' must be a string"),
    ("toolchains__gcc__toolchain.toml", TOOLCHAIN.replace('debug = "-Og"', ""),
     "[opt] must map exactly the intents speed, size, debug"),
    ("toolchains__gcc__toolchain.toml", TOOLCHAIN.replace("host.cmake", "nosuch.cmake"),
     "CMake toolchain file nosuch.cmake not found (key 'targets.host.cmake')"),
    ("campaigns__c.toml", CAMPAIGN + "toolchains = ['clang']\n",
     "unknown toolchain 'clang'"),
    ("profiles__default.toml", 'opt = "fast"\n' + PROFILE, "unknown optimisation intent 'fast'"),
])
def test_unknown_keys_name_file_and_key(tmp_path: Path, root: Path, key: str, text: str,
                                        message: str) -> None:
    tree = make_tree(tmp_path, root, **{key: text})
    with pytest.raises(UserError) as err:
        Definitions.load(tree).campaign("c")
    assert message in str(err.value)
    assert str(tree / key.replace("__", "/")) in str(err.value)


def test_bad_values(tmp_path: Path, root: Path) -> None:
    tree = make_tree(tmp_path, root, ports__demo__port_toml="")
    (tree / "ports/demo/port.toml").write_text(PORT.replace('"SEM"', '"SEMAPHORE"'))
    with pytest.raises(UserError, match=r"unknown capability 'SEMAPHORE'.*SEM, MUTEX"):
        Definitions.load(tree)
    (tree / "ports/demo/port.toml").write_text(PORT.replace('name = "demo"', 'name = "other"'))
    with pytest.raises(UserError, match=r"differs from its folder 'demo'"):
        Definitions.load(tree)
    (tree / "ports/demo/port.toml").write_text(PORT.replace('archs = ["host"]', "archs = 3"))
    with pytest.raises(UserError, match=r"'archs' must be a list of strings"):
        Definitions.load(tree)
    (tree / "ports/demo/port.toml").write_text("name = [")
    with pytest.raises(UserError, match=r"invalid TOML"):
        Definitions.load(tree)


def test_unknown_names_list_valid_ones(tmp_path: Path, root: Path) -> None:
    tree = make_tree(tmp_path, root,
                     campaigns__c_toml="", campaigns__bad_toml="")
    (tree / "campaigns/bad.toml").write_text(CAMPAIGN.replace('"demo"', '"nope"'))
    defs = Definitions.load(tree)
    with pytest.raises(UserError) as err:
        defs.campaign("bad")
    text = str(err.value)
    assert "unknown port 'nope'" in text and "bad.toml" in text and "Valid ports: demo" in text
    with pytest.raises(UserError, match=r"unknown target 'mars' in --target. Valid targets: host"):
        defs.target("mars")
    with pytest.raises(UserError, match=r"campaign file 'zzz' not found in --campaign"):
        defs.campaign("zzz")


def test_adding_a_port_guide_example_is_valid(tmp_path: Path, root: Path) -> None:
    """The port.toml shown in docs/adding-a-port.md loads as written."""
    guide = (root / "docs" / "adding-a-port.md").read_text()
    example = guide.split("```toml\n", 1)[1].split("```", 1)[0]
    tree = make_tree(tmp_path, root, ports__myrtos__port_toml="")
    (tree / "ports/myrtos/port.toml").write_text(example)
    (tree / "ports/myrtos/port_toml").unlink()
    shutil.copytree(root / "targets" / "mps2", tree / "targets" / "mps2")  # the example's archs
    shutil.copytree(root / "targets" / "common", tree / "targets" / "common")
    defs = Definitions.load(tree)
    port = defs.port("myrtos")
    assert port.supports(defs.targets["qemu-mps2-an386"])
    assert not port.supports(defs.targets["host"])
    assert port.source is not None and port.source.env == "RTOSMETER_MYRTOS"


def test_a_misspelt_architecture_lists_the_known_ones(tmp_path: Path, root: Path) -> None:
    tree = make_tree(tmp_path, root, ports__demo__port_toml="")
    (tree / "ports/demo/port.toml").write_text(PORT.replace('"host"]', '"armv7em"]'))
    with pytest.raises(UserError, match=r"unknown architecture 'armv7em' in .*demo/port.toml "
                                        r"\(key 'archs'\)\. Valid architectures: host"):
        Definitions.load(tree)


FAMILY_TARGET = TARGET.replace('name = "host"', 'name = "m1"').replace('kind = "host"',
                                                                       'kind = "qemu"')


@pytest.mark.parametrize(("table", "message"), [
    ('[targets.nowhere]\nboard = "b"\n',
     r"unknown target or target family 'nowhere' in .*demo/port.toml "
     r"\(table \[targets.nowhere\]\)"),
    ('[targets.host]\nboard = "b"\nbord = "c"\n', r"unknown key 'targets.host.bord'"),
    ('[targets.host]\nboard = "b"\nunsupported = "why"\n',
     r"\[targets.host\] needs either board or unsupported"),
    ('[targets.host]\nmodules = ["m"]\n', r"\[targets.host\] needs either board or unsupported"),
    ('[targets]\ntoolchains = ["gcx"]\n[targets.host]\nboard = "b"\n',
     r"unknown toolchain 'gcx' in .*demo/port.toml \(key 'targets.toolchains'\)"),
])
def test_port_targets_table_is_validated(tmp_path: Path, root: Path, table: str,
                                         message: str) -> None:
    """port.toml [targets] is read strictly: a misspelt target, key or
    toolchain is an error naming the file."""
    tree = make_tree(tmp_path, root, ports__demo__port_toml="")
    (tree / "ports/demo/port.toml").write_text(PORT.replace("[unsupported]",
                                                            table + "[unsupported]"))
    with pytest.raises(UserError, match=message):
        Definitions.load(tree)


def test_port_targets_decide_support_with_the_reason(tmp_path: Path, root: Path) -> None:
    """A port with boards runs on the targets (or family members) it names a
    board for, with the toolchains it maps; `unsupported` says why not."""
    table = ('[targets]\ntoolchains = ["gcc"]\n[targets.fam]\nboard = "famboard"\n'
             '[targets.host]\nunsupported = "no room"\n')
    tree = make_tree(tmp_path, root, ports__demo__port_toml="",
                     targets__fam__m1__target_toml=FAMILY_TARGET.replace(
                         "[counter]", 'cpu_hz = 1\n[counter]') + '[qemu]\nmachine = "m"\n',
                     targets__m2__target_toml=FAMILY_TARGET.replace("m1", "m2").replace(
                         "[counter]", 'cpu_hz = 1\n[counter]') + '[qemu]\nmachine = "m"\n')
    for key in ("targets/fam/m1/target_toml", "targets/m2/target_toml"):
        (tree / key).rename(tree / key.replace("target_toml", "target.toml"))
    (tree / "ports/demo/port.toml").write_text(PORT.replace("[unsupported]",
                                                            table + "[unsupported]"))
    (tree / "targets/fam/native/demo").mkdir(parents=True)
    defs = Definitions.load(tree)
    port = defs.port("demo")
    m1, m2, host = defs.target("m1"), defs.target("m2"), defs.target("host")
    assert m1.family == "fam" and m1.native_dir("demo") == tree / "targets/fam/native/demo"
    entry = port.entry(m1)
    assert entry is not None and entry.board == "famboard"
    assert port.unsupported_reason(m1, "gcc") == ""
    assert "no board for target m2" in port.unsupported_reason(m2)
    assert "no room" in (why := port.unsupported_reason(host)) and "[targets.host]" in why
    assert "maps no toolchain 'clang'" in port.unsupported_reason(m1, "clang")


def test_real_ports_name_only_real_boards(root: Path) -> None:
    """Every port with its own build names a board for each target it runs
    on, and the mps2 family folder holds the RTOSes' own board files."""
    defs = Definitions.load(root)
    for port in defs.ports.values():
        if port.cmake_project:
            assert port.needs_board, port.name
    mps2 = defs.target("qemu-mps2-an386")
    assert mps2.family == "mps2"
    for rtos in ("riot", "zephyr", "contiki"):
        assert mps2.native_dir(rtos) == root / "targets" / "mps2" / "native" / rtos
    assert "no board for target stm32f407" in defs.port("zephyr").unsupported_reason(
        defs.target("stm32f407"))

"""RTOS source trees: --source, environment, cache, version, git fetch."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import invoke

from rtosmeter.definitions import Companion, Definitions, Port, SourceSpec
from rtosmeter.errors import UserError
from rtosmeter.sources import (
    SourceMissing,
    cache_dir,
    fetch,
    find_source,
    git_error,
    parse_source_options,
    tree_given,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    """A local git repository standing in for an RTOS upstream, tagged V1.2.3."""
    repo = tmp_path / "upstream"
    (repo / "include").mkdir(parents=True)
    (repo / "tasks.c").write_text("/* kernel */\n")
    (repo / "include" / "task.h").write_text('#define tskKERNEL_VERSION_NUMBER "V1.2.3"\n')
    git("init", "-q", cwd=repo)
    git("add", ".", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init", cwd=repo)
    git("tag", "V1.2.3", cwd=repo)
    return repo


def port(git_url: str = "", tag: str = "V1.2.3") -> Port:
    spec = SourceSpec(env="RTOSMETER_TESTRTOS", probe="tasks.c", version_file="include/task.h",
                      version_regex=r'tskKERNEL_VERSION_NUMBER\s+"([^"]+)"', git=git_url, tag=tag)
    return Port("testrtos", "", ("host",), (), {}, spec, Path("/nonexistent"),
                Path("/nonexistent/port.toml"))


def test_source_option_wins_and_reports_version_and_commit(
        upstream: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTOSMETER_TESTRTOS", "/does/not/exist")
    tree = find_source(port(), parse_source_options(["testrtos=" + str(upstream)]))
    assert tree is not None
    assert tree.path == upstream.resolve() and tree.origin == "--source testrtos"
    assert tree.version == "V1.2.3"
    assert tree.commit == git("rev-parse", "HEAD", cwd=upstream)


def test_environment_and_missing(upstream: Path, monkeypatch: pytest.MonkeyPatch,
                                 tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("RTOSMETER_TESTRTOS", str(upstream))
    tree = find_source(port(), {})
    assert tree is not None and tree.origin == "$RTOSMETER_TESTRTOS"
    monkeypatch.delenv("RTOSMETER_TESTRTOS")
    with pytest.raises(SourceMissing) as err:
        find_source(port(), {})
    assert "--source testrtos=PATH" in err.value.reason and "RTOSMETER_TESTRTOS" in err.value.reason
    monkeypatch.setenv("RTOSMETER_TESTRTOS", str(tmp_path))  # no probe file there
    with pytest.raises(UserError, match=r"has no tasks.c in \$RTOSMETER_TESTRTOS"):
        find_source(port(), {})


def test_a_checkout_that_holds_the_tree_in_a_subdir_is_found_as_the_cache_finds_it(
        upstream: Path, tmp_path: Path) -> None:
    """--source pointing at a FreeRTOS/FreeRTOS checkout: the kernel is in
    its FreeRTOS/Source, one of the port's subdirs; its version and the
    checkout's commit are reported."""
    outer = tmp_path / "FreeRTOS"
    shutil.copytree(upstream, outer / "FreeRTOS" / "Source")
    p = replace(port(), source=replace(port().source, subdirs=("FreeRTOS/Source",)))
    tree = find_source(p, parse_source_options(["testrtos=" + str(outer)]))
    assert tree is not None and tree.path == (outer / "FreeRTOS" / "Source").resolve()
    assert tree.version == "V1.2.3"
    with pytest.raises(UserError, match=r"has no tasks.c or FreeRTOS/Source/tasks.c"):
        find_source(p, parse_source_options(["testrtos=" + str(tmp_path / "upstream" / "include")]))


def test_tree_given_says_whether_an_instance_s_tree_is_here(
        upstream: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a study asks before it runs its own version (study_port)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert not tree_given(port(), {}, "V1.2.3")
    assert tree_given(port(), parse_source_options([f"testrtos@V1.2.3={upstream}"]), "V1.2.3")
    with pytest.raises(UserError, match=r"has no tasks\.c"):  # a given tree that is none
        tree_given(port(), parse_source_options([f"testrtos@V1.2.3={tmp_path}"]), "V1.2.3")


def test_fetch_clones_the_tag_into_the_cache(upstream: Path, monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RTOSMETER_TESTRTOS", raising=False)
    p = port(upstream.as_uri())
    tree = fetch(p)
    assert tree.path == (cache_dir() / "testrtos-V1.2.3").resolve()
    assert tree.version == "V1.2.3" and len(tree.commit) == 40
    found = find_source(p, {})  # the cache is searched after --source and the environment
    assert found is not None and found.origin == "cache"
    assert fetch(p).path == tree.path  # idempotent


def test_fetch_failure_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(UserError) as err:
        fetch(port((tmp_path / "no-such-repo").as_uri()))
    text = str(err.value)
    assert "git clone of" in text and "failed" in text and "--source testrtos=PATH" in text
    assert not (cache_dir() / "testrtos-V1.2.3").exists()
    with pytest.raises(UserError, match=r"Write --source NAME=PATH"):
        parse_source_options(["testrtos"])


def test_fetch_clones_west_modules_at_their_pins(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A port's west_modules (Zephyr's CMSIS, hal_nordic) are cloned at the
    revision the fetched tree's west.yml pins, into <tree>-modules/<path>."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    module = tmp_path / "remotes" / "cmsis"
    (module / "zephyr").mkdir(parents=True)
    (module / "zephyr" / "module.yml").write_text("name: cmsis\n")
    git("init", "-q", cwd=module)
    git("add", ".", cwd=module)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "pinned", cwd=module)
    pinned = git("rev-parse", "HEAD", cwd=module)
    (module / "later.txt").write_text("after the pin\n")
    git("add", ".", cwd=module)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "later", cwd=module)
    rtos = tmp_path / "rtos"
    rtos.mkdir()
    (rtos / "tasks.c").write_text("/* kernel */\n")
    (rtos / "west.yml").write_text(
        "manifest:\n  defaults:\n    remote: upstream\n\n  remotes:\n    - name: upstream\n"
        f"      url-base: {(tmp_path / 'remotes').as_uri()}\n\n  projects:\n"
        f"    - name: cmsis\n      revision: {pinned}\n      path: modules/hal/cmsis\n"
        "      groups:\n        - hal\n    - name: other\n      revision: main\n")
    git("init", "-q", cwd=rtos)
    git("add", ".", cwd=rtos)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init", cwd=rtos)
    git("tag", "v1", cwd=rtos)
    spec = SourceSpec(env="RTOSMETER_TESTRTOS", probe="tasks.c", git=rtos.as_uri(), tag="v1",
                      west_modules=("cmsis",))
    p = Port("testrtos", "", ("host",), (), {}, spec, Path("/nonexistent"),
             Path("/nonexistent/port.toml"))
    tree = fetch(p)
    got = tree.path.parent / f"{tree.path.name}-modules" / "modules" / "hal" / "cmsis"
    assert (got / "zephyr" / "module.yml").is_file()
    assert git("rev-parse", "HEAD", cwd=got) == pinned and not (got / "later.txt").exists()
    bad = Port("testrtos", "", ("host",), (), {},
               SourceSpec(env="X", probe="tasks.c", git=rtos.as_uri(), tag="v1",
                          west_modules=("nosuch",)), Path("/nonexistent"),
               Path("/nonexistent/port.toml"))
    with pytest.raises(UserError, match="has no project 'nosuch'"):
        fetch(bad)


def test_fetch_clones_companions_into_the_tree(upstream: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """[source.companions] (uC-CPU and uC-LIB beside µC/OS-III, CMSIS 6 beside
    RTX5) are cloned at their tags into <tree>/<name>; a bad tag is an error."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lib = tmp_path / "uC-LIB"
    lib.mkdir()
    (lib / "lib_def.h").write_text("/* v1 */\n")
    git("init", "-q", cwd=lib)
    git("add", ".", cwd=lib)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1", cwd=lib)
    git("tag", "v1.39.01", cwd=lib)
    (lib / "lib_def.h").write_text("/* later */\n")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "later", cwd=lib)
    spec = SourceSpec(env="RTOSMETER_TESTRTOS", probe="tasks.c", git=upstream.as_uri(),
                      tag="V1.2.3", companions=(Companion("uC-LIB", lib.as_uri(), "v1.39.01"),))
    p = Port("testrtos", "", ("host",), (), {}, spec, Path("/nonexistent"),
             Path("/nonexistent/port.toml"))
    tree = fetch(p)
    assert (tree.path / "uC-LIB" / "lib_def.h").read_text() == "/* v1 */\n"
    bad = Port("testrtos", "", ("host",), (), {}, SourceSpec(
        env="X", probe="tasks.c", git=upstream.as_uri(), tag="V1.2.3",
        companions=(Companion("CMSIS_6", lib.as_uri(), "v9.9.9"),)), Path("/nonexistent"),
        Path("/nonexistent/port.toml"))
    with pytest.raises(UserError, match=r"git clone of .* at v9\.9\.9 failed"):
        fetch(bad)


def mynewt_release_tree(where: Path) -> Path:
    """The files of mynewt-core at mynewt_1_15_0_tag that name a version, as
    that tag has them: repository.yml's "1-latest" still at the release
    before, version.yml at 0.0.0, the release notes headed by 1.15.0."""
    (where / "kernel" / "os" / "src").mkdir(parents=True)
    (where / "kernel" / "os" / "src" / "os_sched.c").write_text("/* scheduler */\n")
    (where / "repository.yml").write_text(
        'repo.name: apache-mynewt-core\nrepo.versions:\n    "0.0.0": "master"\n'
        '    "1.14.0": "mynewt_1_14_0_tag"\n    "1.15.0": "mynewt_1_15_0_tag"\n\n'
        '    "0-latest": "1.14.0"\n    "1-latest": "1.14.0"\n    "0-dev": "0.0.0"\n')
    (where / "version.yml").write_text("repo.version: 0.0.0\n")
    (where / "RELEASE_NOTES.md").write_text(
        "# RELEASE NOTES\n\n10 July 2026 - Apache Mynewt v1.15.0\n\n"
        "For full release notes, please visit the\n")
    return where


def test_mynewt_version_is_the_release_the_tree_is_tagged(root: Path, tmp_path: Path) -> None:
    mynewt = Definitions.load(root).port("mynewt")
    tree = mynewt_release_tree(tmp_path / "mynewt-core")
    found = find_source(mynewt, {"mynewt": tree})
    assert found is not None and found.version == "1.15.0"


def _doctor_line(output: str, name: str) -> str:
    return next(line for line in output.splitlines() if f" {name} " in line)


@pytest.mark.slow  # doctor runs the compilers, and here a program named newt
def test_doctor_checks_newt_and_mbedtls_for_mynewt(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """What the mynewt port's build needs beside mynewt-core: newt and Mbed TLS,
    found where ports/mynewt/app/CMakeLists.txt looks, or said how to get."""
    tree = mynewt_release_tree(tmp_path / "mynewt-core")
    monkeypatch.setenv("RTOSMETER_MYNEWT", str(tree))
    for var in ("RTOSMETER_NEWT", "RTOSMETER_MYNEWT_MBEDTLS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", os.pathsep.join(
        d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "newt").exists()))
    out = invoke("doctor").output
    assert "version 1.15.0" in _doctor_line(out, "source: mynewt")
    newt = _doctor_line(out, "newt (the mynewt port)")
    assert newt.startswith("absent") and "go build" in newt and "RTOSMETER_NEWT" in newt
    mbedtls = _doctor_line(out, "Mbed TLS (the mynewt port)")
    assert mbedtls.startswith("absent") and "RTOSMETER_MYNEWT_MBEDTLS" in mbedtls
    assert f"looked in {tree / 'mbedtls'}, {tmp_path / 'mynewt-mbedtls'}" in mbedtls
    assert "Mbed-TLS/mbedtls v3.6.6" in mbedtls and "sources fetch mynewt" in mbedtls

    # newt built next to the tree, Mbed TLS where `sources fetch mynewt` puts it
    newt_dir = tmp_path / "mynewt-newt" / "newt"
    newt_dir.mkdir(parents=True)
    (newt_dir / "newt").write_text("#!/bin/sh\necho 'Apache Newt 1.15.0 / test'\n")
    (newt_dir / "newt").chmod(0o755)
    (tree / "mbedtls" / "library").mkdir(parents=True)
    (tree / "mbedtls" / "library" / "aes.c").write_text("/* aes */\n")
    (tree / "mbedtls" / "include" / "mbedtls").mkdir(parents=True)
    (tree / "mbedtls" / "include" / "mbedtls" / "build_info.h").write_text(
        '#define MBEDTLS_VERSION_STRING         "3.5.0"\n')
    out = invoke("doctor").output
    assert _doctor_line(out, "newt (the mynewt port)").startswith("ok")
    assert f"Apache Newt 1.15.0 / test ({newt_dir / 'newt'})" in out
    mbedtls = _doctor_line(out, "Mbed TLS (the mynewt port)")
    assert mbedtls.startswith("ok") and f"3.5.0 at {tree / 'mbedtls'}" in mbedtls
    assert "mynewt-core pins v3.6.6" in mbedtls

    # a variable set to the wrong folder is named
    monkeypatch.setenv("RTOSMETER_NEWT", str(tmp_path))
    monkeypatch.setenv("RTOSMETER_MYNEWT_MBEDTLS", str(tmp_path))
    out = invoke("doctor").output
    assert f"RTOSMETER_NEWT={tmp_path} holds no newt program" in out
    assert f"no Mbed TLS tree (looked in {tmp_path}): set RTOSMETER_MYNEWT_MBEDTLS" in out


def pinned(git_url: str, commit: str) -> Port:
    p = port(git_url)
    assert p.source is not None
    return replace(p, source=replace(p.source, commit=commit))


def test_fetch_checks_the_pinned_commit(upstream: Path, monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    """The tag was cloned, its commit recorded and never checked: a tag moved
    upstream gave another tree silently."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RTOSMETER_TESTRTOS", raising=False)
    good = git("rev-parse", "V1.2.3^{commit}", cwd=upstream)
    assert fetch(pinned(upstream.as_uri(), good)).commit == good
    # the tag moves upstream: a fresh clone is refused and removed
    shutil.rmtree(cache_dir())
    (upstream / "tasks.c").write_text("/* something else */\n")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "moved", cwd=upstream)
    git("tag", "-f", "V1.2.3", cwd=upstream)
    with pytest.raises(UserError, match=f"the tag V1.2.3 now names commit .* but .* pins "
                                        f"{good[:12]}"):
        fetch(pinned(upstream.as_uri(), good))
    assert not (cache_dir() / "testrtos-V1.2.3").exists()


def test_a_cached_tree_is_checked_before_reuse(upstream: Path, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RTOSMETER_TESTRTOS", raising=False)
    good = git("rev-parse", "V1.2.3^{commit}", cwd=upstream)
    tree = fetch(pinned(upstream.as_uri(), good))
    (tree.path / "tasks.c").write_text("/* edited in the cache */\n")
    with pytest.raises(UserError, match=r"the cached testrtos tree has changed files "
                                        r"\(M tasks.c\)"):
        fetch(pinned(upstream.as_uri(), good))
    git("checkout", "-q", "tasks.c", cwd=tree.path)
    other = "0" * 40
    with pytest.raises(UserError, match=f"the cached tree is at commit {good[:12]}, but .* "
                                        "pins 000000000000"):
        fetch(pinned(upstream.as_uri(), other))


def test_a_pin_must_be_a_full_commit_id(tmp_path: Path, root: Path) -> None:
    from rtosmeter.catalog import load_caps
    from rtosmeter.definitions.ports import load_port

    src = root / "ports" / "freertos" / "port.toml"
    (tmp_path / "freertos").mkdir()
    toml = tmp_path / "freertos" / "port.toml"
    pinned = re.sub(r'(?m)^commit = "[0-9a-f]{40}"', 'commit = "abc"', src.read_text())
    assert 'commit = "abc"' in pinned
    toml.write_text(pinned)
    with pytest.raises(UserError, match=r"'source.commit' must be a full commit id"):
        load_port(toml, load_caps(root))


def test_a_failed_git_says_why_not_its_advice() -> None:
    """git ends a failed checkout with advice; the reason is its error line."""
    stderr = ("Cloning into 'x'...\nerror: unable to read sha1 file of a/b.c (6a92a2a)\n"
              "fatal: unable to checkout working tree\nwarning: Clone succeeded, but checkout "
              "failed.\nand retry with 'git restore --source=HEAD :/'\n")
    assert git_error(stderr) == "error: unable to read sha1 file of a/b.c (6a92a2a)"
    assert git_error("fatal: unable to access 'x': Could not resolve host: github.com\n") == \
        "fatal: unable to access 'x': Could not resolve host: github.com"
    assert git_error("") == "(no output)"

"""Third-party RTOS trees: where they are, which version, and fetching them.

A port that builds against an RTOS tree declares `[source]` in its port.toml.
The tree comes from `--source NAME=PATH`, else the port's environment
variable, else the configuration's [sources] (config.py), else a tree
fetched earlier by `rtosmeter sources fetch` into the cache. RTOS sources
are never copied into this repository.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from rtosmeter import config, instances
from rtosmeter.definitions import Port
from rtosmeter.errors import ToolMissing, UserError


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rtosmeter" / "sources"


@dataclass(frozen=True)
class SourceTree:
    port: str
    path: Path
    origin: str  # "--source", "$ENV", "cache"
    version: str  # from version_file/version_regex, "" when unknown
    commit: str  # git commit when the tree is a checkout, "" otherwise

    def as_config(self) -> dict[str, str]:
        return {"rtos_source": str(self.path), "rtos_version": self.version,
                "rtos_commit": self.commit, "rtos_source_origin": self.origin}


class SourceMissing(Exception):
    """The port needs a tree that is not there: the combination is skipped."""

    def __init__(self, port: Port, label: str = "") -> None:
        spec = port.source
        assert spec is not None
        name = instances.join(port.name, label)
        env = "" if label else f"set {spec.env}, "
        self.reason = (
            f"{name} needs its RTOS source tree: pass --source {name}=PATH, "
            f"{env}or run `rtosmeter sources fetch {name}`"
        )
        super().__init__(self.reason)


def parse_source_options(values: tuple[str, ...] | list[str]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise UserError(f"malformed value '{value}'", "--source",
                            "Write --source NAME=PATH, e.g. --source freertos=~/FreeRTOS-Kernel")
        out[name.strip()] = Path(path).expanduser()
    return out


def _version(port: Port, tree: Path) -> str:
    spec = port.source
    assert spec is not None
    if not spec.version_file or not spec.version_regex:
        return ""
    try:
        text = (tree / spec.version_file).read_text(encoding="utf-8", errors="replace")
    except OSError:  # a development checkout (RIOT's VERSION is in releases only)
        return git_describe(tree)
    m = re.search(spec.version_regex, text)
    if m is None:
        return ""
    # Several groups (e.g. major, minor, patch) are joined with dots.
    return ".".join(g for g in m.groups() if g) if m.groups() else m.group(0)


def git_commit(tree: Path) -> str:
    if not (tree / ".git").exists() or shutil.which("git") is None:
        return ""
    proc = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def git_describe(tree: Path) -> str:
    """`git describe --tags` of a checkout (e.g. 2026.10-devel-371-gc8bd52ff13),
    "" when the tree is not one."""
    if not (tree / ".git").exists() or shutil.which("git") is None:
        return ""
    proc = subprocess.run(["git", "-C", str(tree), "describe", "--tags"], capture_output=True,
                          text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def check_tree(port: Port, tree: Path, origin: str) -> SourceTree:
    spec = port.source
    assert spec is not None
    where = f"{origin} ({tree})"
    if not tree.is_dir():
        raise UserError(f"{port.name} source tree is not a directory", where,
                        f"Point it at a checkout of {spec.git or port.name}")
    root = _root_of(port, tree)  # a checkout that holds the tree (FreeRTOS/Source) will do
    if root is None:
        inside = "".join(f" or {sub}/{spec.probe}" for sub in spec.subdirs)
        raise UserError(f"{port.name} source tree has no {spec.probe}{inside}", where,
                        f"Point it at the root of a {port.name} checkout "
                        f"({spec.git or 'see port.toml'})")
    return SourceTree(port.name, root.resolve(), origin, _version(port, root),
                      git_commit(root) or git_commit(tree))


def find_source(port: Port, overrides: dict[str, Path], label: str = "") -> SourceTree | None:
    """The tree of the port (or of its instance `port@label`, see
    instances.py), None if it needs none; raises SourceMissing if absent."""
    spec = port.source
    if spec is None:
        return None
    name = instances.join(port.name, label)
    tree = _locate(port, name, overrides, label)
    if tree is None:
        raise SourceMissing(port, label)
    instances.check_label(name, tree.version, tree.origin)
    return tree


def tree_given(port: Port, overrides: dict[str, Path], label: str = "") -> bool:
    """Whether the tree of the port or instance is given (--source, its
    variable, the config, the cache); a given tree that is not one still raises."""
    try:
        return find_source(port, overrides, label) is not None
    except SourceMissing:
        return False


def _locate(port: Port, name: str, overrides: dict[str, Path], label: str) -> SourceTree | None:
    spec = port.source
    assert spec is not None
    if name in overrides:
        return check_tree(port, overrides[name], f"--source {name}")
    env = os.environ.get(spec.env)
    if env and not label:  # the variable names the one unlabelled tree
        return check_tree(port, Path(env).expanduser(), f"${spec.env}")
    configured = config.load().sources.get(name)
    if configured is not None:
        return check_tree(port, configured.path, f"{configured.file} [sources]")
    tag = label or spec.tag
    if tag:
        cached = _root_of(port, cache_dir() / f"{port.name}-{tag}")
        if cached is not None:
            return check_tree(port, cached, "cache")
    return None


def _root_of(port: Port, checkout: Path) -> Path | None:
    """The tree inside a fetched checkout: its root, or one of the port's
    `subdirs` (where older releases kept it), None if neither holds it."""
    spec = port.source
    assert spec is not None
    for sub in ("", *spec.subdirs):
        if (checkout / sub / spec.probe).is_file():
            return checkout / sub if sub else checkout
    return None


def describe_source(port: Port) -> tuple[bool, str]:
    """For listings (list, doctor, sources list): whether the port's tree is
    usable, and where it is with its version, or why not."""
    try:
        tree = find_source(port, {})
    except SourceMissing as exc:
        return False, exc.reason
    except UserError as exc:  # a bad tree is reported, not fatal, in a listing
        return False, exc.message
    if tree is None:
        return True, "not needed"
    commit = f" commit {tree.commit[:12]}" if tree.commit else ""
    return True, f"{tree.path} [{tree.origin}] version {tree.version or '?'}{commit}"


@dataclass(frozen=True)
class WestProject:
    name: str
    url: str
    revision: str
    path: str


def west_projects(manifest: str) -> dict[str, WestProject]:
    """The projects of a west.yml (name, url, pinned revision, path), read
    without west: its `remotes` (url-base), `defaults` and `projects` lists."""
    remotes = dict(re.findall(r"-\s*name:\s*(\S+)\s+url-base:\s*(\S+)", manifest))
    default = re.search(r"defaults:\s+remote:\s*(\S+)", manifest)
    out: dict[str, WestProject] = {}
    body = manifest.split("projects:", 1)[-1]
    for entry in re.split(r"\n\s*-\s+name:\s*", "\n" + body)[1:]:
        name = entry.split(None, 1)[0]
        fields = dict(re.findall(r"^\s+([\w-]+):\s*(\S+)\s*$", entry, re.MULTILINE))
        remote = fields.get("remote") or (default.group(1) if default else "")
        url = fields.get("url") or f"{remotes.get(remote, '')}/{fields.get('repo-path', name)}"
        out[name] = WestProject(name, url, fields.get("revision", "main"),
                                fields.get("path", name))
    return out


def git_error(stderr: str) -> str:
    """git's reason: its first fatal or error line (the last line may be
    advice, e.g. "retry with 'git restore ...'"), else its last line."""
    lines = stderr.strip().splitlines()
    return next((ln for ln in lines if ln.startswith(("fatal:", "error:"))),
                (lines or ["(no output)"])[-1])


def _git(args: list[str], what: str, port: Port) -> None:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    try:
        proc = subprocess.run(["git", *args], capture_output=True, text=True, timeout=600,
                              env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise UserError(f"{what} timed out", "sources fetch", "Check the network") from exc
    if proc.returncode != 0:
        last = git_error(proc.stderr)
        raise UserError(f"{what} failed ({last})", "sources fetch",
                        f"Check the network, or fetch it yourself next to the {port.name} "
                        "tree (see the port's port.toml)")


def fetch_west_modules(port: Port, tree: Path) -> list[Path]:
    """Clone the port's `west_modules` at the revisions the tree's west.yml
    pins, into <tree>-modules/<path> (west's layout, without west)."""
    spec = port.source
    if spec is None or not spec.west_modules:
        return []
    projects = west_projects((tree / "west.yml").read_text(encoding="utf-8"))
    out = []
    for name in spec.west_modules:
        if name not in projects:
            raise UserError(f"{tree / 'west.yml'} has no project '{name}'", str(port.file),
                            f"Fix west_modules; the manifest lists: {', '.join(projects)}")
        p = projects[name]
        dest = tree.parent / f"{tree.name}-modules" / p.path
        out.append(dest)
        if (dest / "zephyr" / "module.yml").is_file():
            continue
        dest.mkdir(parents=True, exist_ok=True)
        _git(["init", "-q", str(dest)], f"git init of {dest}", port)
        _git(["-C", str(dest), "fetch", "-q", "--depth", "1", p.url, p.revision],
             f"git fetch of {p.url} at {p.revision}", port)
        _git(["-C", str(dest), "checkout", "-q", "FETCH_HEAD"], f"checkout in {dest}", port)
    return out


def fetch_companions(port: Port, tree: Path) -> list[Path]:
    """Clone the port's companion repositories at their tags into <tree>/<name>."""
    spec = port.source
    out = []
    for comp in spec.companions if spec else ():
        dest = tree / comp.name
        out.append(dest)
        if dest.is_dir() and any(dest.iterdir()):
            continue
        _git(["clone", "-q", "--depth", "1", "--branch", comp.tag, comp.git, str(dest)],
             f"git clone of {comp.git} at {comp.tag}", port)
    return out


def fetch(port: Port, tag: str | None = None, dest: Path | None = None) -> SourceTree:
    """Clone the port's `git` repository at `tag` (shallow), the modules its
    `west_modules` names at the revisions the tree pins, and its companions."""
    spec = port.source
    if spec is None or not spec.git:
        raise UserError(f"port '{port.name}' has no git source to fetch", str(port.file),
                        "Only ports with [source] git = ... can be fetched")
    tag = tag or spec.tag
    if not tag:
        raise UserError(f"no tag given for {port.name}", "sources fetch",
                        f"Write `rtosmeter sources fetch {port.name}@<tag>`")
    if shutil.which("git") is None:
        raise ToolMissing("git", "sources fetch", "git")
    target = dest.expanduser() if dest else cache_dir() / f"{port.name}-{tag}"
    pin = spec.commit if tag == spec.tag else ""  # another tag: no pin to check
    if (root := _root_of(port, target)) is not None:
        verify_checkout(port, root, tag, pin, reused=True)
        fetch_west_modules(port, root)
        fetch_companions(port, root)
        return check_tree(port, root, str(root))
    if target.exists() and any(target.iterdir()):
        raise UserError(f"{target} exists but is not a {port.name} tree", "sources fetch",
                        "Remove it or pass --dest to another directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["git", "clone", "--depth", "1", "--branch", tag, spec.git, str(target)]
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env,
                              check=False)
    except subprocess.TimeoutExpired as exc:
        shutil.rmtree(target, ignore_errors=True)
        raise UserError(f"git clone of {spec.git} timed out", "sources fetch",
                        f"Check the network, or clone it yourself and pass --source "
                        f"{port.name}=PATH") from exc
    if proc.returncode != 0:
        shutil.rmtree(target, ignore_errors=True)
        last = git_error(proc.stderr)
        raise UserError(
            f"git clone of {spec.git} at {tag} failed ({last})", "sources fetch",
            f"Check the network and the tag, or clone it yourself and pass --source "
            f"{port.name}=PATH (or set {spec.env})",
        )
    root = _root_of(port, target)
    if root is None:
        raise UserError(f"the {port.name} checkout at {tag} has no {spec.probe}", str(target),
                        f"Name its kernel folder in [source] subdirs of {port.file}")
    try:
        verify_checkout(port, root, tag, pin, reused=False)
    except UserError:
        shutil.rmtree(target, ignore_errors=True)  # never leave an unverified tree to reuse
        raise
    fetch_west_modules(port, root)
    fetch_companions(port, root)
    return check_tree(port, root, str(root))


def verify_checkout(port: Port, tree: Path, tag: str, pin: str, reused: bool) -> None:
    """The checkout is the pinned commit (port.toml [source] commit), and a
    reused one (the cache, --dest) holds no change to its tracked files."""
    head = git_commit(tree)
    if pin and head != pin:
        moved = "the cached tree is at" if reused else f"the tag {tag} now names"
        raise UserError(f"{moved} commit {head[:12] or '(none: not a git checkout)'}, but "
                        f"{port.file} pins {pin[:12]}", str(tree),
                        "Check upstream: a moved tag may be a new release or tampering. "
                        "Remove the tree to fetch again, or update [source] commit after "
                        "checking" if not reused else "Remove the tree to fetch it again")
    if reused:
        proc = subprocess.run(["git", "-C", str(tree), "status", "--porcelain",
                               "--untracked-files=no"], capture_output=True, text=True,
                              check=False)
        if proc.returncode != 0 or proc.stdout.strip():
            first = (proc.stdout.strip().splitlines() or [proc.stderr.strip()])[0]
            raise UserError(f"the cached {port.name} tree has changed files ({first})",
                            str(tree), "Remove the tree to fetch it again")


@dataclass(frozen=True)
class GitPackage:
    """A git package the RTOS's build fetches (RIOT's PKG_URL at PKG_VERSION),
    and whether this machine can serve it without the internet."""
    name: str
    url: str
    commit: str
    mirror: str  # the local folder a git config `insteadOf` maps url to, "" if none
    ok: bool
    detail: str


# Settings of the serving side that RIOT's shallow, blob-less fetch of one
# commit from a local mirror needs (git's defaults refuse both).
MIRROR_SETTINGS = ("uploadpack.allowFilter", "uploadpack.allowAnySHA1InWant")


def _git_out(args: list[str]) -> tuple[int, str]:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    try:
        proc = subprocess.run(["git", *args], capture_output=True, text=True, timeout=30,
                              env=env, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 1, ""
    return proc.returncode, proc.stdout


def _insteadof_rules() -> list[tuple[str, str]]:
    """(prefix, replacement) pairs of the git configuration in effect
    (GIT_CONFIG_GLOBAL included), longest prefix first, as git applies them."""
    rc, out = _git_out(["config", "--get-regexp", r"^url\..*\.insteadof$"])
    rules = []
    for line in out.splitlines() if rc == 0 else []:
        key, _, prefix = line.partition(" ")
        rules.append((prefix.strip(), key[len("url."):-len(".insteadof")]))
    return sorted(rules, key=lambda r: -len(r[0]))


def _mirror_for(url: str, rules: list[tuple[str, str]]) -> str:
    for prefix, base in rules:
        if url.startswith(prefix):
            return base + url[len(prefix):]
    return ""


def _package(file: Path, rules: list[tuple[str, str]], settings_missing: list[str]) -> GitPackage:
    text = file.read_text(encoding="utf-8", errors="replace")
    url = re.search(r"^PKG_URL\s*[:?]?=\s*(\S+)", text, re.MULTILINE)
    commit = re.search(r"^PKG_VERSION\s*[:?]?=\s*(\S+)", text, re.MULTILINE)
    name = re.search(r"^PKG_NAME\s*[:?]?=\s*(\S+)", text, re.MULTILINE)
    label = name.group(1) if name else file.parent.name
    if url is None or commit is None:
        return GitPackage(label, "", "", "", False, f"{file} names no PKG_URL / PKG_VERSION")
    u, c = url.group(1), commit.group(1)
    mirror = _mirror_for(u, rules)
    if not mirror:
        return GitPackage(label, u, c, "", False,
                          f"no mirror: the build fetches {u} at {c[:12]} (needs the internet; "
                          "offline, map it with a git config insteadOf, see docs/riot.md)")
    if not Path(mirror).exists():
        return GitPackage(label, u, c, mirror, False, f"mirror {mirror} of {u} does not exist")
    if _git_out(["-C", mirror, "cat-file", "-e", f"{c}^{{commit}}"])[0] != 0:
        return GitPackage(label, u, c, mirror, False,
                          f"mirror {mirror} lacks commit {c[:12]} of {u}: fetch it there")
    if settings_missing:
        return GitPackage(label, u, c, mirror, False,
                          f"mirror {mirror} has {c[:12]}, but git config lacks "
                          f"{', '.join(f'{s}=true' for s in settings_missing)} (docs/riot.md)")
    return GitPackage(label, u, c, mirror, True, f"{c[:12]} in the mirror {mirror}")


def git_packages(port: Port, tree: Path) -> list[GitPackage]:
    """The port's `git_packages` (files of the tree naming PKG_URL and
    PKG_VERSION): for each, the local mirror a git `insteadOf` rule maps it
    to and whether that mirror serves the pinned commit."""
    spec = port.source
    if spec is None or not spec.git_packages or shutil.which("git") is None:
        return []
    rules = _insteadof_rules()
    missing = [s for s in MIRROR_SETTINGS
               if _git_out(["config", "--type=bool", "--get", s])[1].strip() != "true"]
    return [_package(tree / f, rules, missing) for f in spec.git_packages
            if (tree / f).is_file()]

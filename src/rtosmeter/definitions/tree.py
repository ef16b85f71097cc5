"""All definitions of a source tree and of the folders on the search path,
found by looking (no central list), checked against one another."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from rtosmeter import config
from rtosmeter.catalog import Capability, load_caps
from rtosmeter.definitions.campaigns import Campaign, load_campaign
from rtosmeter.definitions.common import project_root, unknown_name
from rtosmeter.definitions.ports import Port, load_port
from rtosmeter.definitions.profiles import Profile, load_profile
from rtosmeter.definitions.targets import Board, Target, board_of, load_target
from rtosmeter.definitions.toolchains import Toolchain, load_toolchain
from rtosmeter.errors import UserError
from rtosmeter.instances import split as split_instance
from rtosmeter.loads import parse as parse_load
from rtosmeter.loads import split as split_load

T = TypeVar("T")


def _load_all(roots: Iterable[Path], pattern: str | tuple[str, ...],
              loader: Callable[[Path], T], key: Callable[[T], str]) -> dict[str, T]:
    """Every file of the pattern(s) under each root; a name defined twice is
    an error naming both files (one definition per name, wherever it lives)."""
    out: dict[str, T] = {}
    files: dict[str, Path] = {}
    patterns = (pattern,) if isinstance(pattern, str) else pattern
    for root in roots:
        # by folder name: a target's place in a family folder does not move it
        for path in sorted((p for pat in patterns for p in root.glob(pat)),
                           key=lambda p: (p.parent.name, str(p))):
            item = loader(path)
            name = key(item)
            if name in files:
                raise UserError(f"{name!r} is defined twice, also in {files[name]}", str(path),
                                "Rename one of them (the name key, or its folder)")
            out[name], files[name] = item, path
    return out


@dataclass
class Definitions:
    root: Path
    caps: dict[str, Capability]
    ports: dict[str, Port]
    targets: dict[str, Target]
    boards: dict[str, Board]
    profiles: dict[str, Profile]
    toolchains: dict[str, Toolchain] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path | None = None) -> Definitions:
        """The tree's definitions, and the ports, targets and boards of the
        folders on the search path (RTOSMETER_PATH, the config's `path`)."""
        root = root or project_root()
        settings = config.load()
        roots = [root, *(folder for folder, _ in config.search_path(settings))]
        caps = load_caps(root)
        defs = cls(
            root=root,
            caps=caps,
            ports=_load_all(roots, "ports/*/port.toml", lambda p: load_port(p, caps),
                            lambda p: p.name),
            targets=_load_all(roots, ("targets/*/target.toml", "targets/*/*/target.toml"),
                              load_target, lambda t: t.name),
            boards={},
            # a study's own profiles live in its folder (docs/studies.md)
            profiles=_load_all([root], ("profiles/*.toml", "studies/*/profiles/*.toml"),
                               load_profile, lambda p: p.name),
            toolchains=_load_all(roots, "toolchains/*/toolchain.toml", load_toolchain,
                                 lambda t: t.name),
        )
        defs.boards = {t.name: board_of(t) for t in defs.targets.values() if t.kind == "board"}
        defs.check_archs()
        for profile in defs.profiles.values():
            defs.check_profile(profile)
        for port in defs.ports.values():
            for tc in port.toolchain_limits:
                defs.toolchain(tc, f"{port.file} (table [toolchains.{tc}])")
            defs.check_port_targets(port)
        for name, source in settings.sources.items():
            base = split_instance(name, f"{source.file} ([sources])")[0]
            if base not in defs.ports or defs.ports[base].source is None:
                raise unknown_name("port with a source tree", name,
                                   [p.name for p in defs.ports.values() if p.source],
                                   f"{source.file} ([sources])")
        return defs

    def check_archs(self) -> None:
        """Each architecture a port names is some target's: a misspelt one
        would silently match nothing."""
        known = {t.arch for t in self.targets.values()}
        for port in self.ports.values():
            named = [(a, "archs") for a in port.archs] + [
                (a, f"toolchains.{tc}.archs") for tc, lim in port.toolchain_limits.items()
                for a in lim.archs]
            for arch, key in named:
                if arch not in known:
                    raise unknown_name("architecture", arch, known, f"{port.file} (key '{key}')")

    def check_profile(self, profile: Profile) -> None:
        """A profile's kernel configuration is one the ports build (a profile
        of profiles/), its definitions go to ports built by bench/."""
        where = str(profile.file)
        if profile.kernel_config:
            own = [p.name for p in self.profiles.values() if p.file.parent.name == "profiles"
                   and p.file.parent.parent == self.root and not p.kernel_config]
            if profile.kernel_config not in own:
                raise unknown_name("kernel configuration", profile.kernel_config, own,
                                   f"{where} (key 'kernel')")
        for name in profile.defines:
            if name not in self.ports:
                raise unknown_name("port", name, self.ports, f"{where} (key 'defines.{name}')")
            if self.ports[name].cmake_project:
                raise UserError(f"port '{name}' builds with its own build system, which takes "
                                "no compile definitions from a profile",
                                f"{where} (key 'defines.{name}')",
                                "Give its options in the port's own configuration")

    def check_port_targets(self, port: Port) -> None:
        """Each [targets] key is a target or a family, each toolchain named
        there is one of toolchains/: a misspelt name would silently match
        nothing."""
        families = {t.family for t in self.targets.values() if t.family}
        for key, entry in port.targets.items():
            if key not in self.targets and key not in families:
                raise unknown_name("target or target family", key, [*self.targets, *families],
                                   f"{port.file} (table [targets.{key}])")
            for tc in entry.toolchains:
                self.toolchain(tc, f"{port.file} (key 'targets.{key}.toolchains')")
        for tc in port.toolchains:
            self.toolchain(tc, f"{port.file} (key 'targets.toolchains')")

    def port(self, name: str, where: str = "--port") -> Port:
        """The port of a name or of an instance name (`freertos@V9.0.0`:
        instances.py)."""
        base, label = split_instance(name, where)
        if base not in self.ports:
            raise unknown_name("port", base, self.ports, where)
        port = self.ports[base]
        if label and port.source is None:
            raise UserError(f"port '{base}' builds against no source tree, so it has no "
                            f"versions ('{name}')", where, f"Name it as '{base}'")
        return port

    def target(self, name: str, where: str = "--target") -> Target:
        if name not in self.targets:
            raise unknown_name("target", name, self.targets, where)
        return self.targets[name]

    def profile(self, name: str, where: str = "--profile") -> Profile:
        """A profile, or a loaded one: `<profile>+<load>` (rtosmeter.loads)."""
        base, load_spec = split_load(name)
        if base not in self.profiles:
            raise unknown_name("profile", base, self.profiles, where)
        load = parse_load(load_spec, where)
        profile = self.profiles[base]
        if load is None:
            return profile
        return replace(profile, name=f"{base}+{load.name}", load=load,
                       description=f"{profile.description}, under load {load.name}")

    def toolchain(self, name: str, where: str = "--toolchain") -> Toolchain:
        if name not in self.toolchains:
            raise unknown_name("toolchain", name, self.toolchains, where)
        return self.toolchains[name]

    def campaign_path(self, spec: str | None) -> Path:
        """--campaign takes a file or the name of campaigns/<name>.toml."""
        if spec is None:
            return self.root / "campaigns" / "default.toml"
        path = Path(spec).expanduser()
        if path.is_file():
            return path
        named = self.root / "campaigns" / f"{spec}.toml"
        if named.is_file():
            return named
        valid = [p.stem for p in (self.root / "campaigns").glob("*.toml")]
        raise UserError(f"campaign file '{spec}' not found", "--campaign",
                        f"Give a TOML file or one of: {', '.join(sorted(valid))}")

    def campaign(self, spec: str | None) -> Campaign:
        campaign = load_campaign(self.campaign_path(spec))
        for entry in campaign.entries:
            for p in entry.ports:
                self.port(p, f"{entry.where}, key 'ports'")
            for tg in entry.targets:
                self.target(tg, f"{entry.where}, key 'targets'")
            for pr in entry.profiles:
                self.profile(pr, f"{entry.where}, key 'profiles'")
            for tc in entry.toolchains:
                self.toolchain(tc, f"{entry.where}, key 'toolchains'")
        return campaign

"""Packs found by installation, not by path.

Every pack, built-in or third-party, is an entry point of the group `rules_dsl.packs`:
its name is the pack id and its value names a Python package whose folder holds the pack
(`pack.yaml` and its files). The built-in packs are entry points of rules-dsl itself; a
pack distributed on its own declares one in its own `pyproject.toml`. Packs named on the
command line by folder find the packs they require among the installed ones.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
from ruamel.yaml import YAML

from rules_dsl import files
from rules_dsl.errors import RulesError, suggest
from rules_dsl.packs.loader import MANIFEST, MAX_FILE_BYTES, find_pack_folders
from rules_dsl.packs.versions import engine_problem

GROUP = "rules_dsl.packs"


@attrs.frozen
class InstalledPack:
    """One entry point of the group, with what its manifest says (or why it is unusable)."""

    id: str
    folder: str  # empty when the entry point's package cannot be found
    version: str
    requires: tuple[str, ...]
    players: tuple[int, int] | None
    engine: str  # the engine versions it supports; empty: any
    distribution: str  # "rules-dsl 0.1.0": what installed it
    entry_point: str  # "base = rules_dsl.cards"
    problem: str = ""


def read_manifest(folder: Path) -> dict[str, Any]:
    """A pack folder's manifest, or {} if it cannot be read (the loader reports why)."""
    try:
        text = files.read_text(folder / MANIFEST, MAX_FILE_BYTES, inside=folder)  # never a FIFO or /dev/zero
        data = YAML(typ="safe").load(text)
    except Exception:  # any broken manifest is the loader's to report, with its position
        return {}
    return data if isinstance(data, dict) else {}


def _package_folder(value: str) -> tuple[Path | None, str]:
    module = value.partition(":")[0].strip()
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:
        return None, f"cannot find the package {module!r}: {exc}"
    if spec is None:
        return None, f"cannot find the package {module!r}"
    locations = list(spec.submodule_search_locations or [])
    if not locations:
        return None, f"{module!r} is a module, not a package whose folder holds {MANIFEST}"
    folder = Path(locations[0])
    if not (folder / MANIFEST).is_file():
        return folder, f"{folder} holds no {MANIFEST}"
    return folder, ""


def _describe(ep: metadata.EntryPoint) -> InstalledPack:
    dist = ep.dist
    distribution = f"{dist.name} {dist.version}" if dist is not None else "?"
    folder, problem = _package_folder(ep.value)
    manifest = read_manifest(folder) if folder is not None and not problem else {}
    requires = manifest.get("requires") or []
    players = manifest.get("players")
    engine = manifest.get("engine", "")
    if not problem and manifest.get("id") != ep.name:
        problem = f"the entry point is called {ep.name!r} but {MANIFEST} says id {manifest.get('id')!r}"
    if not problem and "engine" in manifest:
        problem = engine_problem(engine, ep.name)
    return InstalledPack(
        id=ep.name,
        folder=str(folder) if folder is not None else "",
        version=str(manifest.get("version", "")),
        requires=tuple(r for r in requires if isinstance(r, str)) if isinstance(requires, list) else (),
        players=(players[0], players[1])
        if isinstance(players, list) and len(players) == 2 and all(isinstance(p, int) for p in players)
        else None,
        engine=str(engine or ""),
        distribution=distribution,
        entry_point=f"{ep.name} = {ep.value}",
        problem=problem,
    )


@functools.cache
def installed_packs() -> dict[str, InstalledPack]:
    """Pack id -> the installed pack, for every entry point of the group, by id."""
    found: dict[str, InstalledPack] = {}
    for ep in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        pack = _describe(ep)
        if pack.id in found:
            first = found[pack.id]
            clash = f"installed twice: by {first.distribution} and by {pack.distribution}; uninstall one"
            found[pack.id] = attrs.evolve(first, problem=first.problem or clash)
            continue
        found[pack.id] = pack
    return found


def find_installed(pack_id: str) -> InstalledPack:
    """An installed, usable pack, or a clear error naming the installed ones."""
    packs = installed_packs()
    pack = packs.get(pack_id)
    if pack is None and not packs:
        raise RulesError(
            f"no pack {pack_id!r}: no pack is installed, not even the built-in ones, which come with "
            "rules-dsl's install metadata: reinstall rules-dsl (in a checkout: pip install -e .)"
        )
    if pack is None:
        hint = suggest(pack_id, packs)
        raise RulesError(
            f"no pack {pack_id!r}: give an installed pack ({', '.join(sorted(packs))}) "
            "or a pack folder" + (f" ({hint})" if hint else "")
        )
    if pack.problem:
        raise RulesError(f"pack {pack_id!r} ({pack.distribution}) cannot be used: {pack.problem}")
    return pack


MAX_PACKS = 100  # packs given together (a base game and its mods)


def resolve(items: Iterable[str]) -> list[str]:
    """Pack ids and pack folders -> the folders to load, with the installed packs they require.

    A name that is an existing folder is that folder; otherwise it must be an installed
    pack's id, or contain a '/' (then the loader reports a missing folder precisely).
    """
    folders: list[str] = []
    seen: dict[Path, str] = {}
    for item in items:
        item = item.strip()
        if not item:
            continue
        folder = item if Path(item).is_dir() or "/" in item else find_installed(item).folder
        key = Path(folder).resolve()
        if key in seen:  # said before any pack is read: 1,000 copies are not compiled first
            raise RulesError(f"pack {item!r} is given twice" + (f" (as {seen[key]!r})" if seen[key] != item else ""))
        seen[key] = item
        if len(seen) > MAX_PACKS:
            raise RulesError(f"at most {MAX_PACKS} packs can be played together")
        folders.append(folder)
    if not folders:
        raise RulesError(
            f"no pack given: name an installed pack ({', '.join(sorted(installed_packs()))}) or a pack folder"
        )
    return with_requirements(folders)


def with_requirements(paths: Iterable[str]) -> list[str]:
    """The given pack folders plus the installed packs they require, transitively."""
    out = list(paths)
    given: set[str] = set()
    todo: list[str] = []
    for folder in find_pack_folders(out):
        manifest = read_manifest(folder)
        if isinstance(manifest.get("id"), str):
            given.add(manifest["id"])
            requires = manifest.get("requires") or []
            todo += [r for r in requires if isinstance(r, str)] if isinstance(requires, list) else []
    installed = installed_packs()
    while todo:  # each pack is added at most once, so this ends
        r = todo.pop(0)
        if r in given or r not in installed or not installed[r].folder:
            continue  # a requirement still missing is reported by the loader, with its position
        given.add(r)
        out.append(installed[r].folder)
        todo += installed[r].requires
    return out

"""The compiled-rules cache: a changed pack file is never served from it, and rules read
from it play exactly the games compiled rules play."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rules_dsl import cache, serialize
from rules_dsl.compiler import build
from rules_dsl.engine import Engine
from rules_dsl.errors import PackError
from rules_dsl.testing import play, seeded_chooser

ROOT = Path(__file__).resolve().parent.parent
MICROCOSM = ROOT / "expansions" / "microcosm"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_DIR, str(folder))
    monkeypatch.delenv(cache.ENV_OFF, raising=False)
    return folder


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The pack folders of every real compilation (a load the cache did not serve)."""
    calls: list[list[str]] = []
    real = build.compile_packs

    def counting(paths: list[str]) -> object:
        calls.append(list(paths))
        return real(paths)

    monkeypatch.setattr(build, "compile_packs", counting)
    return calls


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    folder = tmp_path / "microcosm"
    shutil.copytree(MICROCOSM, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_second_load_comes_from_the_cache(cache_dir: Path, compiles: list[list[str]], pack: Path) -> None:
    first = Engine.load([str(pack)])
    assert len(compiles) == 1
    assert len(list(cache_dir.glob("*.rules"))) == 1
    second = Engine.load([str(pack)])
    assert len(compiles) == 1
    assert second.rules is not first.rules
    assert [c.id for c in second.rules.cards] == [c.id for c in first.rules.cards]


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        ("domain.yaml", "name: Colonize (lightbulb)", "name: Colonize (lightbulX)"),  # same size
        ("pack.yaml", 'name: "Eminent Domain: Microcosm"', 'name: "Eminent Domain: Microcosm, edited"'),
    ],
)
def test_a_changed_pack_file_is_never_served_from_the_cache(
    cache_dir: Path, compiles: list[list[str]], pack: Path, file: str, old: str, new: str
) -> None:
    before = Engine.load([str(pack)])
    path = pack / file
    stat = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same time stamp: only the bytes differ
    after = Engine.load([str(pack)])
    assert len(compiles) == 2
    shown = {after.rules.name, *(c.name for c in after.rules.cards)}
    assert new.split(": ", 1)[1].strip('"') in shown
    assert before.rules.name != after.rules.name or [c.name for c in before.rules.cards] != [
        c.name for c in after.rules.cards
    ]
    # and back: the first version compiles again (one entry per pack set), never the edited one
    path.write_text(text, encoding="utf-8")
    again = Engine.load([str(pack)])
    assert len(compiles) == 3
    assert [c.name for c in again.rules.cards] == [c.name for c in before.rules.cards]
    assert again.rules.name == before.rules.name


def test_a_new_file_in_the_pack_folder_changes_the_key(cache_dir: Path, pack: Path) -> None:
    key = cache.content_key([str(pack)])
    (pack / "notes.txt").write_text("x", encoding="utf-8")
    assert cache.content_key([str(pack)]) not in (None, key)


def test_another_engine_never_reads_the_entry(
    cache_dir: Path, compiles: list[list[str]], pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Engine.load([str(pack)])
    monkeypatch.setattr(cache, "_ENGINE", "another engine's source")
    Engine.load([str(pack)])
    assert len(compiles) == 2


def test_a_damaged_entry_is_compiled_again(cache_dir: Path, compiles: list[list[str]], pack: Path) -> None:
    Engine.load([str(pack)])
    (entry,) = cache_dir.glob("*.rules")
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2])
    Engine.load([str(pack)])
    assert len(compiles) == 2
    assert entry.read_bytes() == data  # rewritten whole


def test_a_pack_with_mistakes_is_never_stored(cache_dir: Path, pack: Path) -> None:
    (pack / "rules.yaml").write_text("turn: [\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(PackError):
            Engine.load([str(pack)])
    assert not list(cache_dir.glob("*.rules"))


def test_off_writes_nothing(
    cache_dir: Path, compiles: list[list[str]], pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV_OFF, "1")
    Engine.load([str(pack)])
    Engine.load([str(pack)])
    assert len(compiles) == 2
    assert not cache_dir.exists()


def test_the_default_place_is_the_user_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV_DIR, raising=False)
    monkeypatch.delenv(cache.ENV_OFF, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if os.name != "nt":
        assert cache.cache_dir() == tmp_path / "rules-dsl"


@pytest.mark.parametrize(("pack_id", "players", "variants"), [("base", 4, None), ("base", 2, ["learning"])])
def test_rules_from_the_cache_play_the_same_games(
    cache_dir: Path, compiles: list[list[str]], pack_id: str, players: int, variants: list[str] | None
) -> None:
    compiled = Engine.for_pack(pack_id)
    cached = Engine.for_pack(pack_id)
    assert len(compiles) == 1  # the second came from the cache
    for seed in range(3):
        a = compiled.new_game(players, seed, variants)
        b = cached.new_game(players, seed, variants)
        log_a = play(compiled, a, seeded_chooser(seed))
        log_b = play(cached, b, seeded_chooser(seed))
        assert a.over
        assert log_a == log_b
        assert serialize.to_json(a) == serialize.to_json(b)
        assert compiled.observe(a, 0) == cached.observe(b, 0)


def test_the_oldest_entries_go(cache_dir: Path, pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    kept = []
    for i in range(4):
        monkeypatch.setattr(cache, "_ENGINE", f"engine {i}")  # as after an edit of the engine
        Engine.load([str(pack)])
        entry = cache._entry(cache_dir, [str(pack)])
        os.utime(entry, ns=(i * 10**9, i * 10**9))
        kept.append(entry)
    assert sorted(cache_dir.glob("*.rules")) == sorted(kept[2:])

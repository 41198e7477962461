"""The docs and the grammar agree.

Every example in the docs marked as DSL compiles against its pack, and together the
examples use every construct of the grammar and every syntax node. The convention (see
docs/dsl.md): a fenced block whose info string is `dsl` holds card text or rules text;
`dsl condition` and `dsl expression` hold conditions and expressions; a trailing
`microcosm` (or `love-letter`, `dominion-first-game`) compiles them against that pack
instead of the base game. Examples in one block are separated by blank lines.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import attrs
import pytest
from conftest import ROOT
from ruamel.yaml import YAML

from rules_dsl import ast
from rules_dsl.compiler import compile_packs
from rules_dsl.engine import Engine, pack_paths
from rules_dsl.errors import PackError
from rules_dsl.parser import _lark, parse

DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```(.*)$")
PACKS = ("base", "microcosm", "love-letter", "dominion-first-game", "escalation", "sushi-go")
# packs that are example folders rather than installed packs
FOLDERS = {
    "love-letter": str(ROOT / "examples" / "games" / "love-letter"),
    "dominion-first-game": str(ROOT / "examples" / "games" / "dominion-first-game"),
    "sushi-go": str(ROOT / "examples" / "games" / "sushi-go"),
}
STARTS = {"": "start", "condition": "condition", "expression": "expression"}
TUTORIAL = ROOT / "docs" / "tutorial.md"


@attrs.frozen
class Example:
    file: str
    line: int  # of the example's first line
    start: str  # start symbol: start | condition | expression
    pack: str
    text: str

    def where(self) -> str:
        return f"{self.file}:{self.line}"


@cache
def examples() -> tuple[Example, ...]:
    found: list[Example] = []
    for path in DOCS:
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            m = FENCE.match(lines[i])
            if not m:
                i += 1
                continue
            words = m.group(1).split()
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            if words[:1] == ["dsl"]:
                rest = words[1:]
                pack = next((w for w in rest if w in PACKS), "base")
                kind = next((w for w in rest if w in STARTS), "")
                assert set(rest) <= {*PACKS, *STARTS}, f"{path.name}:{i + 1}: unknown words in {m.group(1)!r}"
                chunk: list[str] = []
                first = i + 2
                for j in range(i + 1, end + 1):
                    if j == end or not lines[j].strip():
                        if chunk:
                            found.append(Example(path.name, first, STARTS[kind], pack, "\n".join(chunk)))
                        chunk = []
                        first = j + 2
                    else:
                        chunk.append(lines[j])
            i = end + 1
    return tuple(found)


def test_the_docs_have_examples() -> None:
    files = {e.file for e in examples()}
    assert "dsl.md" in files
    assert {e.pack for e in examples()} == set(PACKS)
    assert {e.start for e in examples()} == {"start", "condition", "expression"}


@pytest.mark.parametrize("example", examples(), ids=Example.where)
def test_example_parses(example: Example) -> None:
    assert "..." not in example.text, "an example must be complete: leave out the dots or unmark the block"
    parse(example.text, example.start)


def _indent(text: str, by: int) -> str:
    return "\n".join(" " * by + line for line in text.splitlines())


def example_pack(folder: Path, pack: str) -> list[tuple[int, Example]]:
    """A mod of `pack` holding every example: card text as cards, the rest as procedures
    (a condition as `only if`, an expression as `let`). Returns (first file line, example)."""
    rules = compile_packs(pack_paths(FOLDERS.get(pack, pack)))
    kind = rules.cards[0].kind
    zone = next(z for z, t in rules.zones.items() if not t.per_player)
    folder.mkdir()
    (folder / "pack.yaml").write_text(
        f"id: doc-examples\nname: docs\nversion: 0.0.0\nrequires: [{pack}]\nfiles: [examples.yaml]\n",
        encoding="utf-8",
    )
    cards: list[tuple[str, Example]] = []
    procedures: list[tuple[str, Example]] = []
    for n, e in enumerate(x for x in examples() if x.pack == pack):
        if e.start == "start" and re.match(
            r"[A-Z][A-Z0-9_]*:|WHEN |WHENEVER |WHILE |ONCE PER TURN|DURING |INSTEAD OF |PREVENT |MAY ", e.text
        ):
            head = f"  - id: doc-example-{n}\n    kind: {kind}\n    zone: {zone}\n    count: 0\n    text: |-"
            cards.append((f"{head}\n{_indent(e.text, 6)}", e))
        else:
            wrap = {"start": "{}", "condition": "only if {}", "expression": "let DOC_VALUE be {}"}[e.start]
            procedures.append((f"  doc-example-{n}: |-\n{_indent(wrap.format(e.text), 4)}", e))
    lines: list[str] = []
    starts: list[tuple[int, Example]] = []
    for title, entries in (("cards:", cards), ("procedures:", procedures)):
        if entries:
            lines.append(title)
        for text, e in entries:
            starts.append((len(lines) + 1, e))
            lines.extend(text.splitlines())
    (folder / "examples.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return starts


def _example_at(starts: list[tuple[int, Example]], line: int) -> str:
    before = [e for first, e in starts if first <= line]
    return before[-1].where() if before else "?"


@pytest.mark.parametrize("pack", PACKS)
def test_examples_compile(pack: str, tmp_path: Path) -> None:
    starts = example_pack(tmp_path / "doc-examples", pack)
    try:
        compile_packs([*pack_paths(FOLDERS.get(pack, pack)), str(tmp_path / "doc-examples")])
    except PackError as exc:
        report = [
            f"{_example_at(starts, p.line) if p.file.endswith('examples.yaml') else p.file}: {p.message}"
            for p in exc.problems
        ]
        raise AssertionError("examples in the docs that do not compile:\n" + "\n".join(report)) from None


def test_parenthesised_block_statement_compiles(tmp_path: Path) -> None:
    """The statement the issue found rejected compiles to a block of its two statements."""
    from rules_dsl.explain import effect_tree

    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "pack.yaml").write_text(
        "id: m\nname: m\nversion: 0.0.0\nrequires: [base]\nfiles: [cards.yaml]\n", encoding="utf-8"
    )
    (tmp_path / "m" / "cards.yaml").write_text(
        "cards:\n  - {id: twice, kind: role-card, zone: box, count: 0,\n"
        "     text: 'ACTION: (draw 1 card; gain 1 fighter)'}\n",
        encoding="utf-8",
    )
    rules = compile_packs([*pack_paths("base"), str(tmp_path / "m")])
    ct = rules.cards[rules.card_index["twice"]]
    tree = [line.split()[0] for line in effect_tree(rules.effects[ct.sections["ACTION"]])]
    assert tree[:5] == ["Scope", "body:", "Block", "children:", "Draw"]
    assert "Gain" in tree


# ---- every construct has an example -------------------------------------------------


def constructs() -> set[str]:
    """The names of the grammar's rules and aliased alternatives, as they appear in parse trees."""
    names = set()
    for rule in _lark().rules:
        name = rule.alias or rule.origin.name
        if name.startswith("_") or (rule.options.expand1 and rule.alias is None):
            continue  # helper rules, and inlined ones that never show in a tree
        names.add(str(name))
    return names


def test_every_grammar_construct_has_an_example() -> None:
    seen: set[str] = set()
    for e in examples():
        tree = _lark().parse(e.text, start=e.start)
        seen |= {str(t.data) for t in tree.iter_subtrees()}
    missing = sorted(constructs() - seen)
    assert not missing, f"docs/dsl.md has no `dsl` example using: {', '.join(missing)}"


def test_every_syntax_node_has_an_example() -> None:
    from rules_dsl.compiler.statements import walk

    seen: set[type] = set()
    for e in examples():
        seen |= {type(node) for node in walk(parse(e.text, e.start))}
    nodes = {cls for cls in vars(ast).values() if isinstance(cls, type) and attrs.has(cls) and cls is not ast.Pos}
    missing = sorted(cls.__name__ for cls in nodes - seen)
    assert not missing, f"docs/dsl.md has no `dsl` example with: {', '.join(missing)}"


# ---- command transcripts and quoted figures ------------------------------------------


def transcripts() -> list[tuple[str, str, str]]:
    """(where, command line, expected output) of every `$ rules-dsl` in a `console` block.

    In the expected output a line `...` stands for any lines, and `...` inside a line for
    any text (figures that change with every rules fix)."""
    found = []
    for path in DOCS:
        if path == TUTORIAL:
            continue  # its commands run in a folder of their own: test_the_tutorial_runs_end_to_end
        lines = path.read_text(encoding="utf-8").splitlines()
        inside = False
        indent = 0
        for n, raw in enumerate(lines, start=1):
            if raw.strip().startswith("```"):
                inside = raw.strip() == "```console"
                indent = len(raw) - len(raw.lstrip())
                continue
            if not inside:
                continue
            line = raw[indent:].rstrip()
            if line.startswith("$ "):
                found.append((f"{path.name}:{n}", line[2:], []))
            elif found and found[-1][0].startswith(path.name):
                found[-1][2].append(line)
    return [(where, command, "\n".join(out)) for where, command, out in found]


def _pattern(expected: str) -> re.Pattern[str]:
    parts = []
    for line in expected.splitlines():
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(map(re.escape, line.split("..."))) + r"\n")
    return re.compile("".join(parts))


def test_the_docs_have_transcripts() -> None:
    commands = {command.split()[1] for _, command, _ in transcripts()}
    assert {"validate", "cards", "scenario", "simulate"} <= commands


@pytest.mark.parametrize(("where", "command", "expected"), transcripts(), ids=lambda x: str(x)[:30])
def test_transcript(
    where: str, command: str, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shlex

    from rules_dsl.cli import main

    program, *argv = shlex.split(command)
    assert program == "rules-dsl"
    monkeypatch.chdir(ROOT)
    main(argv)
    out, err = capsys.readouterr()
    output = "".join(line.rstrip() + "\n" for line in (out + err).splitlines())
    assert _pattern(expected).fullmatch(output), f"{where}: `{command}` now prints:\n{output}"


def test_quoted_facts_of_the_base_pack(engine: Engine) -> None:
    """README and modding.md quote the size of the base game: the pack holds exactly that."""
    cards = engine.rules.cards
    technologies = [c for c in cards if c.kind == "technology"]
    faces_of_pairs = [c for c in technologies if c.props.get("pair")]
    assert len(technologies) - len(faces_of_pairs) // 2 == 39  # a permanent technology has two faces
    roles = [c for c in cards if c.kind == "role"]
    assert len(roles) == 6 and any(c.props.get("icon") == "research" for c in roles)
    for doc in ("README.md", "docs/modding.md"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        assert "six roles including Research, 39 technologies" in text, doc


# ---- the tutorial runs, command by command --------------------------------------------


def tutorial_steps() -> list[tuple[int, str, str, list[str]]]:
    """(line, "file" | "run", path or command, lines): each `yaml PATH` block is a file to
    write; each `$ command` of a `console` block is run, and the lines after it are its
    output (as in the other docs' transcripts: a line `...` stands for any lines, `...` in a
    line for any text). A `console install` block is the install, which
    tests/test_wheel.py checks from a built wheel."""
    lines = TUTORIAL.read_text(encoding="utf-8").splitlines()
    steps: list[tuple[int, str, str, list[str]]] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        words = m.group(1).split()
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        body = lines[i + 1 : end]
        if words[0] == "yaml" and len(words) == 2:
            steps.append((i + 2, "file", words[1], body))
        elif words == ["console"]:
            for k, line in enumerate(body):
                if line.startswith("$ "):
                    expected = []
                    for after in body[k + 1 :]:
                        if after.startswith("$ "):
                            break
                        expected.append(after)
                    steps.append((i + 2 + k, "run", line[2:], expected))
        else:
            assert words in (["console", "install"], ["yaml"], ["dsl"]), f"tutorial.md:{i + 1}: block {m.group(1)!r}"
        i = end + 1
    return steps


def test_the_tutorial_runs_end_to_end(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    steps = tutorial_steps()
    assert [kind for _, kind, _, _ in steps].count("file") == 4
    commands = [what for _, kind, what, _ in steps if kind == "run"]
    assert any(c.startswith("rules-dsl validate") for c in commands)
    assert any(c.startswith("rules-dsl simulate") for c in commands)
    assert any(c.startswith("rules-dsl scenario") for c in commands)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("COLUMNS", None)
    for line, kind, what, body in steps:
        if kind == "file":
            path = tmp_path / what
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(body) + "\n", encoding="utf-8")
            continue
        # one stream, as a terminal shows it
        done = subprocess.run(
            ["bash", "-c", what],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
            check=False,
        )
        shown = "".join(out.rstrip() + "\n" for out in done.stdout.splitlines())
        assert done.returncode == 0, f"tutorial.md:{line}: {what!r} exited {done.returncode}:\n{shown}"
        assert "Traceback" not in shown, f"tutorial.md:{line}: {what!r}:\n{shown}"
        assert _pattern("\n".join(body)).fullmatch(shown), f"tutorial.md:{line}: {what!r} now prints:\n{shown}"


def recipes() -> list[tuple[str, str, str]]:
    """(where, pack, file) of each `yaml recipe PACK` block of docs/modding.md."""
    lines = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        words = line[3:].split() if line.startswith("```") else []
        if words[:2] == ["yaml", "recipe"]:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append((f"modding.md:{i + 1}", words[2], "\n".join(lines[i + 1 : end]) + "\n"))
    return found


def test_there_is_a_recipe_for_each_kind_of_card() -> None:
    kinds = set()
    for _, _, text in recipes():
        kinds |= set(re.findall(r"^    kind: (\S+)$", text, re.M))
    assert kinds == {"role-card", "planet", "technology", "scenario", "domain"}
    assert sum("sides: 2" in text for _, _, text in recipes()) == 1


@pytest.mark.parametrize(("where", "pack", "text"), recipes(), ids=lambda x: str(x)[:16])
def test_recipe_compiles_without_warnings(tmp_path: Path, where: str, pack: str, text: str) -> None:
    from rules_dsl.packs.installed import resolve

    mod = tmp_path / "recipe"
    mod.mkdir()
    (mod / "pack.yaml").write_text(f"id: recipe\nrequires: [{pack}]\nfiles: [cards.yaml]\n", encoding="utf-8")
    (mod / "cards.yaml").write_text(text, encoding="utf-8")
    try:
        rules = compile_packs(resolve([str(mod)]))
    except PackError as exc:
        raise AssertionError(f"{where}: the recipe does not compile:\n{exc.render()}") from None
    assert [w.render() for w in rules.warnings] == [], where


def test_every_built_in_pack_has_an_evaluation_for_the_search_bots() -> None:
    """modding.md says so (it once said Microcosm had none)."""
    for pack in ("base", "escalation", "microcosm", "base-scenarios"):
        rules = compile_packs(pack_paths(pack))
        assert rules.features and rules.weights is not None and len(rules.weights) == len(rules.features), pack


def test_the_evaluation_modding_md_quotes_is_the_love_letter_packs() -> None:
    """modding.md quotes the Love Letter example's evaluation (it once said the DSL had no
    multiplication and quoted `your tokens plus ...`, though the pack says `9 times ...`)."""
    text = " ".join((ROOT / "docs" / "modding.md").read_text(encoding="utf-8").split())
    rules = YAML(typ="safe").load(
        (ROOT / "examples" / "games" / "love-letter" / "rules.yaml").read_text(encoding="utf-8")
    )
    assert f"`{' '.join(rules['evaluation'].split())}`" in text
    assert "no multiplication" not in text

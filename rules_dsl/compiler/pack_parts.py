"""The pack parts that are not rules text: limits, statistics, choosable values,
parameters and variants."""

from __future__ import annotations

from typing import Any

from rules_dsl import chosen
from rules_dsl.compiler.build_base import BuilderBase, named
from rules_dsl.compiler.vocabulary import Vocabulary
from rules_dsl.errors import suggest
from rules_dsl.packs import shape
from rules_dsl.packs.check import check as check_shape
from rules_dsl.packs.loader import key_loc, value_loc
from rules_dsl.packs.model import Loc
from rules_dsl.rules import Choosable, Look, Statistic, Variant

VAR_RE = "[A-Z][A-Z0-9_]*"
BUILTIN_PARAMS = {"PLAYERS"}
# a pack's `limits:` key -> the Rules field it sets (the bounds are in shape.LIMITS)
LIMITS = {
    "steps": "step_limit",
    "decisions-per-turn": "decision_limit",
    "frames": "frame_limit",
    "decisions-per-game": "game_decision_limit",
}


class PackParts(BuilderBase):
    def read_limits(self) -> dict[str, int]:
        """`limits: {steps: ..., decisions-per-turn: ..., frames: ...}`, the last pack's
        value of each; the defaults are Rules' own."""
        out: dict[str, int] = {}
        for part in self.parts.get("limits", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(
                    loc, "limits must map steps, decisions-per-turn, frames or decisions-per-game to a number"
                )
                continue
            for key, value in node.items():
                if key not in LIMITS:
                    self.problems.add(
                        key_loc(node, key, loc.file),
                        f"unknown limit {key!r}",
                        expected=sorted(LIMITS),
                        suggestion=suggest(str(key), LIMITS),
                    )
                    continue
                field = LIMITS[key]
                bound = shape.LIMITS.fields[key].shape
                most = bound.maximum if isinstance(bound, shape.Int) and bound.maximum else 1
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
                    self.problems.add(
                        value_loc(node, key, loc.file), f"the limit {key} is a whole number from 1 to {most}"
                    )
                    continue
                out[field] = value
        return out

    def read_look(self, voc: Vocabulary) -> Look:
        """`look: {colours:, symbols:, words:, faces:}` of every pack, a later pack's entry for
        a name replacing an earlier one's; each name must be the vocabulary's (a kind, a symbol,
        a moment, window or procedure, a property)."""
        colours: dict[str, str] = {}
        glyphs: dict[str, str] = {}
        words: dict[str, str] = {}
        faces = ""
        named_words = {*voc.moments, *voc.windows, *self._proc_trees}
        for part in self.parts.get("look", []):
            node, loc = part.value, part.loc
            if not check_shape(node, shape.LOOK, loc.file, self.problems, "look", loc):
                continue
            for key, table, known, what in (
                ("colours", colours, voc.kinds, "card kind"),
                ("symbols", glyphs, voc.symbols, "symbol"),
                ("words", words, named_words, "moment, window or procedure"),
            ):
                entries = node.get(key) or {}
                for name, value in entries.items():
                    if name not in known:
                        self.problems.add(
                            key_loc(entries, name, loc.file),
                            f"look: {key} names {name!r}, which is no {what} of the packs",
                            expected=sorted(known),
                            suggestion=suggest(str(name), known),
                        )
                    elif key == "symbols" and not 1 <= len(str(value)) <= 3:
                        self.problems.add(
                            value_loc(entries, name, loc.file), f"look: the glyph of {name!r} is 1 to 3 characters"
                        )
                    else:
                        table[str(name)] = str(value)
            if "faces" in node:
                if node["faces"] not in voc.properties:
                    self.problems.add(
                        value_loc(node, "faces", loc.file),
                        f"look: faces names {node['faces']!r}, which is no property of the packs",
                        expected=sorted(voc.properties),
                        suggestion=suggest(str(node["faces"]), voc.properties),
                    )
                else:
                    faces = str(node["faces"])
        return Look(colours, glyphs, words, faces, tuple(voc.symbols))

    def read_statistics(self, voc: Vocabulary) -> list[Statistic]:
        """`statistics: {NAME: {from: ZONE or [ZONE...], to: ZONE or [ZONE...]}}`: card moves to count."""
        part = self.composed.statistics
        if part is None:
            return []
        node = part.value
        if not hasattr(node, "items"):
            self.problems.add(part.loc, "statistics must map a name to {from: zones, to: zones}")
            return []
        out = []
        for name, spec in node.items():
            loc = value_loc(node, name, part.loc.file)
            if not hasattr(spec, "items") or set(spec) != {"from", "to"}:
                message = f"statistic {name!r} must be {{from: zones, to: zones}}"
                self.problems.add(loc, message, expected=["from", "to"])
                continue
            ends: list[tuple[str, ...]] = []
            for end in ("from", "to"):
                zones = spec[end] if isinstance(spec[end], list) else [spec[end]]
                for z in zones:
                    if not named(z, voc.zones):
                        self.problems.add(
                            value_loc(spec, end, part.loc.file),
                            f"statistic {name!r}: unknown zone {z!r}",
                            expected=sorted(voc.zones),
                            suggestion=suggest(str(z), voc.zones),
                        )
                ends.append(tuple(str(z) for z in zones))
            out.append(Statistic(str(name), ends[0], ends[1]))
        return out

    def read_choosable(self, voc: Vocabulary, variants: dict[str, Variant]) -> dict[str, Choosable]:
        """`choosable: {OPTION: {from: ZONE, to: ZONE, prefix:, variant:, description:}}`, entry by
        entry (a later pack replaces an option of the same name)."""
        out: dict[str, Choosable] = {}
        for part in self.parts.get("choosable", []):
            node, file = part.value, part.loc.file
            if not hasattr(node, "items"):
                self.problems.add(part.loc, "choosable must map an option name to {from: zone, to: zone}")
                continue
            for option, spec in node.items():
                loc = key_loc(node, option, file)
                if not hasattr(spec, "items") or not {"from", "to"} <= set(spec):
                    self.problems.add(
                        loc, f"choosable {option!r} must give from: and to: zones", expected=["from", "to"]
                    )
                    continue
                self.unknown_keys(spec, file, shape.CHOOSABLE, f"choosable {option!r}")
                for end in ("from", "to"):
                    if named(spec[end], voc.zones) and voc.zones[spec[end]].per_player:
                        self.problems.add(
                            value_loc(spec, end, file), f"choosable {option!r}: {spec[end]!r} must be a shared zone"
                        )
                    elif not named(spec[end], voc.zones):
                        self.problems.add(
                            value_loc(spec, end, file),
                            f"choosable {option!r}: unknown zone {spec[end]!r}",
                            expected=sorted(voc.zones),
                            suggestion=suggest(str(spec[end]), voc.zones),
                        )
                variant = str(spec.get("variant", ""))
                if variant and variant not in variants:
                    self.problems.add(
                        value_loc(spec, "variant", file),
                        f"choosable {option!r}: unknown variant {variant!r}",
                        expected=sorted(variants),
                        suggestion=suggest(variant, variants),
                    )
                out[str(option)] = Choosable(
                    str(option),
                    str(spec["from"]),
                    str(spec["to"]),
                    str(spec.get("prefix", "")),
                    variant,
                    str(spec.get("description", "")),
                )
        return out

    def player_range(self) -> tuple[int, int]:
        for s in reversed(self.sources):
            if s.players:
                return s.players
        return (2, 4)

    def read_parameters(self) -> dict[str, Any]:
        import re

        params: dict[str, Any] = {}
        for part in self.parts.get("parameters", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(loc, "parameters must map NAMES to numbers or {players: number}")
                continue
            for name, value in node.items():
                vloc = value_loc(node, name, loc.file)
                if not re.fullmatch(VAR_RE, str(name)):
                    self.problems.add(
                        key_loc(node, name, loc.file),
                        f"parameter {name!r} must be written in capitals, e.g. HAND_LIMIT",
                    )
                    continue
                checked = self.param_value(value, vloc)
                if checked is not None:
                    params[str(name)] = checked
        return params

    def param_value(self, value: Any, loc: Loc) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return int(value)  # a plain int, not the YAML reader's subclass
        if hasattr(value, "items") and all(isinstance(k, int) and isinstance(v, int) for k, v in value.items()):
            return {int(k): int(v) for k, v in value.items()}
        self.problems.add(loc, "a parameter is a whole number, or a number per player count such as {2: 1, 4: 2}")
        return None

    def read_variants(self, params: dict[str, Any]) -> tuple[dict[str, Variant], list[str]]:
        variants: dict[str, Variant] = {}
        for part in self.parts.get("variants", []):
            node, loc = part.value, part.loc
            if not hasattr(node, "items"):
                self.problems.add(loc, "variants must map each variant name to {description:, parameters:}")
                continue
            for name, spec in node.items():
                vloc = key_loc(node, name, loc.file)
                if not hasattr(spec, "items"):
                    self.problems.add(vloc, f"variant {name!r} must be a mapping")
                    continue
                if chosen.SEPARATOR in str(name):  # OPTION=NAME is a chosen card (rules_dsl/chosen.py)
                    self.problems.add(vloc, f"variant {name!r}: a variant name has no {chosen.SEPARATOR!r}")
                    continue
                self.unknown_keys(spec, loc.file, shape.VARIANT, f"variant {name!r}")
                overrides: dict[str, Any] = {}
                pnode = spec.get("parameters") or {}
                for pname, pval in pnode.items():
                    ploc = key_loc(pnode, pname, loc.file)
                    if pname not in params:
                        self.problems.add(
                            ploc,
                            f"variant {name!r} sets unknown parameter {pname!r}",
                            suggestion=suggest(str(pname), params),
                        )
                        continue
                    checked = self.param_value(pval, value_loc(pnode, pname, loc.file))
                    if checked is not None:
                        overrides[str(pname)] = checked
                variants[str(name)] = Variant(str(name), str(spec.get("description", "")), overrides)
        for vname, pname, pval, ploc, vloc in self.composed.variant_changes:
            if pname not in params:
                self.problems.add(
                    ploc, f"variant {vname!r} sets unknown parameter {pname!r}", suggestion=suggest(pname, params)
                )
                continue
            checked = self.param_value(pval, vloc)
            if checked is not None and vname in variants:
                variants[vname].params[pname] = checked
        defaults: list[str] = []
        for v, vloc in self.composed.default_variants:
            if v not in variants:
                self.problems.add(vloc, f"unknown variant {v!r}", suggestion=suggest(str(v), variants))
            elif v not in defaults:
                defaults.append(str(v))
        return variants, defaults

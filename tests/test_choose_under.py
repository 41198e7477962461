"""`choose a card under CARD`: one tucked card, picked by the player among those under it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rules_dsl.scenario import Report, run_scenario

SETTLED = (
    "    - step: take-the-settled-planet\n      text: |\n"
    "        flip the target face up;\n        move the cards under the target to your discard\n"
)
# a made-up rule: settling, the player keeps one colony of their choice in hand
KEEP_ONE = (
    "    - step: take-the-settled-planet\n      text: |\n"
    "        flip the target face up;\n        choose a card under the target as the kept;\n"
    "        move the kept to your hand;\n        move the cards under the target to your discard\n"
)


def test_the_player_chooses_one_card_under_a_card(pack_copy: Callable[..., Path]) -> None:
    folder = pack_copy(("rules.yaml", SETTLED, KEEP_ONE))
    data = {
        "name": "keep one colony",
        "pack": [folder.name],  # a list of folders: this copy, not the installed base pack
        "players": 2,
        "unused": "box",
        "position": {
            "active": 1,
            "phase": "role",
            "players": {
                1: {
                    "hand": [],
                    "empire": [{"card": "drawde", "face": "down", "under": ["colonize", "warfare", "colonize"]}],
                },
                2: {"hand": []},
            },
            "zones": {"colonize-stack": ["colonize"]},
        },
        "decisions": [
            "colonize-role",
            "settle 1 planet",
            {"expect": {"decision": {"player": 1, "options": ["colonize", "warfare"]}}},
            "warfare",
            {
                "expect": {
                    "players": {
                        1: {
                            "hand": ["warfare"],
                            "discard": ["colonize", "colonize"],
                            "empire": [{"card": "drawde", "face": "up"}],
                        }
                    }
                }
            },
        ],
    }
    report = run_scenario(data, folder.parent, Report("test", "test"))
    assert report.ok, report.render()

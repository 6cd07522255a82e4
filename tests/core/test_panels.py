"""A view names the panels that draw the ruleset's own part (core/view.py): declared once by the detail type's
``PANELS``, put in every view by the envelope, fixed in the view schema."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

import affray
from affray.core.json import as_list, as_object
from affray.core.plugin import plugin
from affray.core.view import panels_of, view_schema

ROOT = Path(__file__).parents[2]
DECLARED = {
    "witchhammer/mill_ambush": ["grid", "cards"],
    "spellchrome/ford_duel": ["grid"],
    "warp/melee_brawl": ["line"],
    "hud/nerdified_duel": ["places"],
}


@pytest.mark.parametrize("example", sorted(DECLARED))
def test_every_view_carries_the_panels_its_detail_type_declares(example: str) -> None:
    match = affray.load_scenario(ROOT / "examples" / f"{example}.yaml").start(1)
    for seat in (*match.seat_names(), "gm", "spectator"):
        assert match.view_json(seat)["panels"] == DECLARED[example]
    schema = view_schema(*plugin(example.split("/")[0]).ruleset().view_types)
    panels = as_object(as_object(schema["properties"])["panels"])
    assert panels["const"] == DECLARED[example] and "panels" in as_list(schema["required"])


def test_a_panel_kind_no_client_knows_is_refused() -> None:
    @dataclass
    class Odd:
        PANELS: ClassVar[tuple[str, ...]] = ("hologram",)

    with pytest.raises(TypeError, match=r"Odd.PANELS names \['hologram'\]; the panel kinds are"):
        panels_of(Odd)


def test_a_detail_type_that_declares_nothing_asks_for_no_panel() -> None:
    assert panels_of(dict) == ()

"""The mode of a scene that names none. Rules: WL-00, WL-B16."""

from __future__ import annotations

from typing import Any

import affray
from affray.rulesets.hud.state import HudState


def scene(**extra: Any) -> dict[str, Any]:
    """Vesna (Endurance 8) against Bors (Endurance 7), Vesna attacking first by the scene's logic."""
    return {
        "ruleset": "hud",
        "name": "no mode",
        "first": "vesna",
        **extra,
        "sides": [
            {"name": "witcher", "combatants": [{"id": "vesna", "use": "vesna"}]},
            {"name": "tavern", "combatants": [{"id": "bors", "use": "bors"}]},
        ],
    }


def started(data: dict[str, Any]) -> tuple[affray.Scenario, HudState, list[str]]:
    scenario = affray.scenario_from_data(data)
    match = scenario.start(1)
    assert isinstance(match.state, HudState)
    pending = match.pending()
    assert pending is not None
    return scenario, match.state, sorted({str(spec.action["type"]) for spec in match.legal(pending.actors[0])})


def test_wl_b16_a_scene_that_names_no_mode_is_free_form() -> None:
    """WL-B16, WL-00 ("The default combat mode in the sim is Free Form"): with no ``mode`` the scene is Free Form:
    3 HP each whatever the Endurance (8 and 7), Vesna posts first, and her choices are Free Form's (post, settle
    with Dice Simplified, end the scene), not a Combat Nerdified declaration. It used to play Combat Nerdified."""
    scenario, state, types = started(scene())
    assert scenario.setup["mode"] == "free_form" and state.mode == "free_form"
    assert {cid: (f.hp, f.max_hp) for cid, f in state.fighters.items()} == {"vesna": (3, 3), "bors": (3, 3)}
    assert (state.phase, state.order) == ("post", ["vesna", "bors"])  # the first to post is asked
    assert types == ["end_scene", "post", "settle"]


def test_wl_b16_nerdified_is_chosen_by_name() -> None:
    """WL-B16: Combat Nerdified is chosen by name: HP = Endurance (8 and 7, WL-08) and a declaration to make."""
    scenario, state, types = started(scene(mode="nerdified"))
    assert scenario.setup["mode"] == "nerdified" and state.mode == "nerdified"
    assert {cid: f.hp for cid, f in state.fighters.items()} == {"vesna": 8, "bors": 7}
    assert types == ["declare"]

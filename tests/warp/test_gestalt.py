"""Gestalt combat: one roll each, summed per side; the GM's total stays secret until the result.

Rules: WR-35 (and the rulings WR-X1, WR-X10).
"""

from __future__ import annotations

import json
from typing import Any

from affray.core.engine import GM
from affray.core.match import Match
from affray.rulesets.warp.events import GestaltResult
from affray.rulesets.warp.mechanics import gestalt_winner
from affray.rulesets.warp.view_types import SideTotal
from tests.warp.helpers import RULESET, brawler, fighter, ok, rejected, rolls, state, thug, warp_match, who


def raid(dice: list[int], options: dict[str, object] | None = None) -> Match:
    """Two PCs (3 dice each) against two GM characters (3 dice each)."""
    return warp_match([brawler("a"), brawler("c")], [thug("x"), thug("y")], dice, options, mode="gestalt")


def test_wr35_highest_total_wins() -> None:
    """WR-35: the GM rolls 5 + 6 = 11 for the cultists at once; the players roll 10 + 12 = 22 and win."""
    assert gestalt_winner({"A": 22, "B": 11}) == "A" and gestalt_winner({"A": 5, "B": 5}) is None
    m = raid([1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4, 4])
    assert [r.roll.total for r in rolls(list(m.setup_events), "gestalt")] == [5, 6]
    assert m.pending().actors == ("a",)  # type: ignore[union-attr]
    ok(m.act("a", {"type": "gestalt_roll"}))
    events = ok(m.act("c", {"type": "gestalt_roll"}))
    result = next(e for e in events if isinstance(e, GestaltResult))
    assert result.totals == {"A": 22, "B": 11} and result.winner == "A"
    assert m.outcome() is not None and who(m, "x").status == "beaten"


def totals(view: Any) -> list[SideTotal]:
    assert view.detail.gestalt is not None
    return list(view.detail.gestalt.totals)


def test_wr35_the_gms_total_is_hidden_from_players_until_the_result() -> None:
    """WR-35: before the result, a player's view and log show no GM total and no GM dice; the GM sees
    them; after the result everyone sees the totals."""
    m = raid([1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4, 4])
    secret = {"side": "B", "total": 11}
    player_view = json.dumps(m.view("a").to_json(), sort_keys=True)
    assert json.dumps(secret, sort_keys=True) not in player_view
    assert totals(m.view("a")) == [SideTotal("A", 0)]
    assert SideTotal("B", 11) in totals(m.view(GM))
    assert (GM, secret) in RULESET.secrets(m.state)
    ok(m.act("a", {"type": "gestalt_roll"}))
    log = m.redacted_log("c")
    assert all(e.get("type") != "rolled" or e.get("actor") not in ("x", "y") for entry in log for e in entry["events"])
    ok(m.act("c", {"type": "gestalt_roll"}))
    assert SideTotal("B", 11) in totals(m.view("a"))


def test_wr35_secret_gm_rolls_are_private_events() -> None:
    """WR-35: the GM characters' gestalt dice are visible to the GM seat only."""
    m = raid([1, 2, 2, 2, 2, 2])
    hidden = [e for e in m.setup_events if getattr(e, "purpose", "") == "gestalt"]
    assert all(e.audience() == frozenset({GM}) for e in hidden)
    assert hidden[0].redacted() == {"type": "hidden", "actor": "x", "purpose": "gestalt"}


def test_wr35_experience_and_trait_choice() -> None:
    """WR-04, WR-35: a PC may spend Experience Pool dice on its gestalt roll; a non-fighting trait is refused."""
    m = warp_match(
        [fighter("a", experience=2, traits={"street_brawler": 3, "watchful": 4})],
        [thug("x")],
        [1, 1, 1, 6, 6, 6, 6, 6],
        mode="gestalt",
    )
    assert rejected(m, "a", {"type": "gestalt_roll", "trait": "watchful"}).code == "unsuitable_trait"
    assert rejected(m, "a", {"type": "gestalt_roll", "experience": -1}).code == "bad_count"
    events = ok(m.act("a", {"type": "gestalt_roll", "experience": 2}))
    assert rolls(events, "gestalt")[0].roll.total == 18 and who(m, "a").experience == 0


def test_wr35_ties_roll_again_by_default() -> None:
    """WR-X10: equal totals: everyone rolls again (the GM's numbers stay secret); the option 'draw' ends it."""
    m = warp_match([brawler("a")], [thug("x")], [2, 2, 2, 2, 2, 2, 1, 1, 1, 6, 6, 6], mode="gestalt")
    ok(m.act("a", {"type": "gestalt_roll"}))
    assert m.outcome() is None and state(m).gestalt.round == 2  # type: ignore[union-attr]
    ok(m.act("a", {"type": "gestalt_roll"}))
    assert m.outcome().winner == "A"  # type: ignore[union-attr]
    draw = warp_match([brawler("a")], [thug("x")], [2, 2, 2, 2, 2, 2], {"gestalt_ties": "draw"}, mode="gestalt")
    ok(draw.act("a", {"type": "gestalt_roll"}))
    assert draw.outcome().winner is None  # type: ignore[union-attr]


def test_wr35_the_gm_may_overturn_a_close_result_at_the_table() -> None:
    """WR-35, WR-X1: a 1-point win is close (margin 3): at the table the GM may overturn it for tactics."""
    m = warp_match([brawler("a")], [thug("x")], [3, 3, 3, 3, 3, 4], {"gm_decisions": "table"}, mode="gestalt")
    ok(m.act("a", {"type": "gestalt_roll"}))
    assert m.pending().actors == (GM,)  # type: ignore[union-attr]
    events = ok(m.act(GM, {"type": "gestalt_verdict", "overturn": True}))
    result = next(e for e in events if isinstance(e, GestaltResult))
    assert (result.winner, result.overturned) == ("B", True)

"""The prompt of a Combat Nerdified exchange names the two fighters as a seat reads them (WL-11: the defender
chooses how to meet an attack), never by their ids: labels name things by their names."""

from __future__ import annotations

from tests.hud.helpers import DEFENSE, attack, combatant, declare, hud_match, ok


def test_wl11_the_defenders_prompt_names_attacker_and_defender() -> None:
    a = combatant("ilka", name="Ilka Varsh", endurance=10, agility=3)
    b = combatant("widow", name="The Night Widow", endurance=10, strength=1)
    m = hud_match("nerdified", a, b, [9, 3, 10, 2, 11, 1, 10, 5])
    ok(declare(m, "widow", DEFENSE, DEFENSE))
    ok(declare(m, "ilka", attack("widow"), attack("widow")))
    window = m.pending()
    assert window is not None and window.actors == ("widow",)
    assert window.prompt == "Ilka Varsh's attack against The Night Widow"

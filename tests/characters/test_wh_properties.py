"""Properties of WitchHammer advancement: whatever a player tries, in any order, a change is either refused (and the
sheet unchanged) or leaves a legal sheet whose points add up. Rules: WH-31..WH-35, WH-B22."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from affray.characters.sheet import Refused
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.sheet import ATTRIBUTE_COST, SKILLS, WitchHammerSheet
from tests.characters.helpers import lib

Change = Callable[[WitchHammerSheet], WitchHammerSheet]


def changes() -> st.SearchStrategy[tuple[str, Change]]:
    content = lib()
    techniques = sorted(set(content.sections["cards"]) | set(content.sections["passives"]))
    attributes = [*ATTRIBUTE_COST, *SKILLS, "ranged_defense", "fire_defense"]
    return st.one_of(
        st.sampled_from(attributes).map(lambda a: (f"attribute {a}", lambda s: adv.buy_attribute(s, a, content))),
        st.sampled_from(sorted(content.sections["schools"])).map(
            lambda x: (f"school {x}", lambda s: adv.learn_school(s, x, content))
        ),
        st.sampled_from(techniques).map(lambda t: (f"technique {t}", lambda s: adv.learn_technique(s, t, content))),
        st.sampled_from(sorted(content.sections["traits"])).map(
            lambda t: (f"trait {t}", lambda s: adv.take_trait(s, t, content))
        ),
        st.just(("trade", lambda s: adv.trade_school_point(s, content))),
        st.sampled_from(sorted(wh.REWARDS)).map(lambda r: (f"reward {r}", lambda s: adv.grant_reward(s, r))),
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(changes(), max_size=40))
def test_any_sequence_of_changes_keeps_the_sheet_legal(steps: list[tuple[str, Change]]) -> None:
    content = lib()
    sheet = adv.new_sheet("Anyone")
    for _label, change in steps:
        before = sheet
        try:
            sheet = change(sheet)
        except Refused:
            assert sheet == before
            continue
        assert wh.problems(sheet, content) == []
        rules = wh.build_rules(sheet)
        left, have, used = wh.points_left(sheet, content), wh.granted(sheet, rules), wh.spent(sheet, content, rules)
        assert all(n >= 0 for _, n in left.items())
        assert left == have - used
        assert "ranged" not in wh.character(sheet).defenses and "fire" not in wh.character(sheet).defenses

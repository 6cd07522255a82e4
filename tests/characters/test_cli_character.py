"""``affray character`` run as a user runs it: answers fed to stdin of a subprocess, exit codes, no tracebacks.
Rules: WH-31..WH-37, WH-B22 (refusals at the prompt), WR-03, SC-14, WL-03 (the other rulesets' prompts)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml

from tests.characters.helpers import EXAMPLES, ROOT
from tests.cli_run import affray as run_affray

HILDE_ANSWERS = [
    "Hilde Brandt",
    "A drover who turned to hunting the things that took her herd.",
    "ranged_defense",  # refused: WH-B22
    "attack",
    "defense",
    "max_poise",
    "max_poise",
    "init",
    "init",  # 4 + 3 + 2 + 2 + 1 + 1 = 13
    "attack",  # refused: 4 points, 2 left
    "con_defense",  # 15 spent
    "still_waters",
    "raging_bull",  # a typo refused, then the school
    "trample",  # refused: needs level 2
    "bull_rush",
    "horn_swing",
    "thick_neck",
    "bulls_temper",
    "sword_swing",
    "dodge_away",
    "remember_why",
    "sickly",
    "sharp_eyed",
    "menacing",  # a monster template refused (WH-C1)
    "boar spear",
    "leather_jerkin",
    "lamp oil",
    "wolf trap",
    "salt",
    "",
    "grey felt hat",
    "6",
    "garnet",
    "4",
    "",
    "y",
]


def affray(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_affray("character", *args, stdin=stdin, cwd=cwd)


def answers(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_new_witchhammer_by_prompts_refuses_what_the_rules_refuse_and_builds_the_example(tmp_path: Path) -> None:
    """WH-31/WH-32/WH-B22/WH-33/WH-34/WH-C1: the prompts show the points left, refuse with the rule, and the
    answers above rebuild examples/characters/hilde.yaml exactly (with the same public seed for the silver)."""
    out = tmp_path / "hilde.yaml"
    result = affray("new", "witchhammer", "--seed", "3", "--out", str(out), stdin=answers(*HILDE_ANSWERS))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "15 Attribute points left" in text and "2 Attribute points left" in text
    assert "refused: Ranged Defense cannot be bought with Attribute points (WH-B22)" in text
    assert "refused: +1 Attack costs 4 Attribute points; 2 left" in text
    assert "refused: no school 'still_waters'" in text
    assert "refused: 'trample' (Trample) needs raging_bull level 2" in text
    assert "refused: 'sickly' (Sickly) changes combat statistics" in text
    assert "rolls starting silver: 1d100 [34] = 34" in text and "Traceback" not in result.stderr
    built = yaml.safe_load(out.read_text())
    assert built == yaml.safe_load((EXAMPLES / "hilde.yaml").read_text())


def test_new_witchhammer_with_a_paid_hat_of_value_0_saves_the_sheet(tmp_path: Path) -> None:
    """The user's step: ``affray character new witchhammer`` with a hat of value 0, paid for (WH-37, ruling
    WH-C10): it used to end in an internal error (a ledger line of 0 silver) with nothing saved. Now the sheet is
    saved with the hat and no ledger line, and checks; an over-long weapon, hat or gem name is refused at its
    prompt and asked again, never a crash."""
    out = tmp_path / "hilde.yaml"
    hat = HILDE_ANSWERS.index("grey felt hat")
    lines = [
        *HILDE_ANSWERS[: hat - 6],
        "w" * 81,
        *HILDE_ANSWERS[hat - 6 : hat],
        "h" * 121,
        "grey felt hat",
        "0",
        "g" * 61,
        "",
        "y",
    ]
    result = affray("new", "witchhammer", "--seed", "3", "--out", str(out), stdin=answers(*lines))
    assert result.returncode == 0, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "refused: string should have at most 80 characters" in result.stdout
    assert "refused: string should have at most 120 characters" in result.stdout
    assert "refused: string should have at most 60 characters" in result.stdout
    built = yaml.safe_load(out.read_text())
    assert built["hat"] == {"name": "grey felt hat"}
    assert built["money"]["silver"] == 34 and built["money"].get("ledger", []) == []
    assert built["equipment"]["weapon"] == "boar spear"
    assert affray("check", str(out)).returncode == 0


def test_round_trip_new_save_check_advance_check_spend_check(tmp_path: Path) -> None:
    """A sheet made by prompts checks; a hunt won (hunt + defeat, WH-35) adds 1 Technique and 1 Trait point; they
    are spent; it still checks, and show prints the result."""
    sheet = tmp_path / "hilde.yaml"
    assert (
        affray("new", "witchhammer", "--seed", "3", "--out", str(sheet), stdin=answers(*HILDE_ANSWERS)).returncode == 0
    )
    assert affray("check", str(sheet)).returncode == 0
    advanced = affray("advance", str(sheet), "--reward", "hunt", "--reward", "defeat", "--note", "The Mill")
    assert advanced.returncode == 0, advanced.stderr
    assert "reward: hunt (+1 Technique)" in advanced.stdout and "reward: defeat (+1 Trait)" in advanced.stdout
    assert "points left: 0 Attribute, 0 School, 1 Technique, 1 Trait" in advanced.stdout
    assert affray("check", str(sheet)).returncode == 0
    spent = affray("spend", str(sheet), "--technique", "haymaker", "--trait", "trapper")
    assert spent.returncode == 0 and "points left: 0 Attribute, 0 School, 0 Technique, 0 Trait" in spent.stdout
    checked = affray("check", str(sheet))
    assert checked.returncode == 0 and "is a legal witchhammer character" in checked.stdout
    data = yaml.safe_load(sheet.read_text())
    assert data["rewards"] == [{"reward": "hunt", "note": "The Mill"}, {"reward": "defeat", "note": "The Mill"}]
    assert data["techniques"][-1] == "haymaker" and data["traits"][-1] == "trapper"
    shown = affray("show", str(sheet), "--markdown")
    assert shown.returncode == 0 and "| Technique | 0 left of 8 (8 spent) |" in shown.stdout
    assert "| Poise | 35 |" in shown.stdout


def test_spend_is_all_or_nothing_and_a_refusal_exits_1(tmp_path: Path) -> None:
    """WH-33: Still Water is refused beside Raging Bull; WH-B22: Fire Defense is refused; nothing is written."""
    sheet = tmp_path / "w.yaml"
    sheet.write_text((EXAMPLES / "wendel.yaml").read_text())
    before = sheet.read_text()
    refused = affray("spend", str(sheet), "--technique", "still_mind", "--attribute", "fire")
    assert refused.returncode == 1 and "Fire Defense cannot be bought" in refused.stderr
    assert "nothing was written" in refused.stderr and sheet.read_text() == before
    traded = affray("spend", str(sheet), "--dry-run", "--trait", "menacing")
    assert traded.returncode == 0 and "dry run" in traded.stdout and sheet.read_text() == before
    school = affray("advance", str(sheet), "--reward", "witch", "--out", str(tmp_path / "w2.yaml"))
    assert school.returncode == 0 and sheet.read_text() == before
    clash = affray("spend", str(tmp_path / "w2.yaml"), "--school", "raging_bull")
    assert clash.returncode == 1 and "cannot be learned by someone who knows Still Water School (WH-33)" in clash.stderr
    trade = affray("spend", str(tmp_path / "w2.yaml"), "--trade-school", "1")
    assert trade.returncode == 0 and "points left: 3 Attribute, 0 School, 8 Technique, 1 Trait" in trade.stdout


def test_check_names_the_field_and_exits_1_for_a_broken_sheet(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    data = yaml.safe_load((EXAMPLES / "hilde.yaml").read_text())
    data["attributes"]["attack"] = 3
    broken.write_text(yaml.safe_dump(data))
    schema = tmp_path / "schema.yaml"
    schema.write_text(yaml.safe_dump({**data, "attributes": {"ice_defense": 1}, "hp": 3}))
    result = affray("check", str(broken), str(schema), str(EXAMPLES / "dana.yaml"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{broken}: attributes: 23 Attribute points spent but 15 granted" in result.stderr
    assert f"{schema}: attributes: Ice Defense cannot be bought with Attribute points (WH-B22)" in result.stderr
    assert f"{schema}: hp: Extra inputs are not permitted" in result.stderr
    assert "dana.yaml is a legal warp character" in result.stdout


def test_unknown_ruleset_missing_file_and_non_sheet_exit_2_with_one_sentence(tmp_path: Path) -> None:
    for args in (
        ("new", "gurps"),
        ("check", str(tmp_path / "nope.yaml")),
        ("show", str(ROOT / "pyproject.toml")),
        ("check", str(ROOT / "examples" / "hud" / "nerdified_duel.yaml")),
        ("new", "warp", "--out", str(EXAMPLES / "dana.yaml")),
    ):  # never overwritten without --force
        result = affray(*args)
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    unknown = affray("new", "gurps").stderr
    assert "unknown ruleset 'gurps'; known rulesets: hud, spellchrome, warp, witchhammer." in unknown
    warp = affray("advance", str(EXAMPLES / "dana.yaml"), "--reward", "hunt")
    assert warp.returncode == 2 and "Traceback" not in warp.stderr
    assert (
        "`affray character advance` is not offered for warp sheets; warp sheets offer: new, check, show." in warp.stderr
    )


def test_input_that_ends_early_saves_nothing(tmp_path: Path) -> None:
    result = affray("new", "witchhammer", "--out", str(tmp_path / "x.yaml"), stdin=answers("Half Done"))
    assert result.returncode == 2 and "input ended before the character was finished" in result.stderr
    assert not (tmp_path / "x.yaml").exists()


def test_new_warp_spellchrome_and_hud_by_prompts(tmp_path: Path) -> None:
    """WR-03 (central, two sides, superior, flaw; 21 HP by default), SC-14 (sign and level), WL-03 (stats,
    armour, weapons): each answer is checked as given."""
    warp = answers(
        "Dana",
        "",
        "fast_on_feet",
        "fast_on_feet",
        "street_brawler",
        "shadow",
        "",
        "",
        "strong",
        "poor_eyesight",
        "",
        "3",
        "lead_pipe",
        "leathers",
    )
    spell = answers(
        "Oriel",
        "",
        "armoes",
        "3",
        "16",
        "12",
        "14",
        "10",
        "10",
        "11",
        "3",
        "",
        "toughness",
        "juggle=3",
        "run=4, heal=1",
        "longsword",
        "empowered_plate",
        "waterskin",
    )
    hud = answers("Vesna", "", "11", "8", "3", "2", "brigandine", "steel_sword, hand_crossbow", "", "y")
    for ruleset, stdin, refusal in (
        ("warp", warp, "'fast_on_feet' is taken already"),
        ("spellchrome", spell, "unknown skill(s) juggle"),
        ("hud", hud, "a whole number from 3 to 10"),
    ):
        out = tmp_path / f"{ruleset}.yaml"
        result = affray("new", ruleset, "--out", str(out), stdin=stdin)
        assert result.returncode == 0, (ruleset, result.stderr)
        assert f"refused: {refusal}" in result.stdout
        assert affray("check", str(out)).returncode == 0
    dana = yaml.safe_load((tmp_path / "warp.yaml").read_text())
    assert (dana["central"], dana["side"], dana["flaw"], dana.get("hp", 21)) == (
        "fast_on_feet",
        ["street_brawler", "shadow"],
        "poor_eyesight",
        21,
    )
    assert yaml.safe_load((tmp_path / "hud.yaml").read_text())["in_hand"] == ["steel_sword"]


def test_leader_by_the_most_valuable_hat() -> None:
    """WH-37: Wendel's 20-silver hat with three 5-silver pearls (35) outranks Hilde's 6 + 4 (10)."""
    result = affray("leader", str(EXAMPLES / "hilde.yaml"), str(EXAMPLES / "wendel.yaml"), "--json")
    data = json.loads(result.stdout)
    assert data["leader"] == "Wendel Saltmarsh" and data["ranking"] == [
        ["Wendel Saltmarsh", 35, 20],
        ["Hilde Brandt", 10, 6],
    ]


def test_wound_and_heal_carry_harm_on_the_sheet(tmp_path: Path) -> None:
    """WH-19/WH-23: Wounds and an affliction go on the sheet; WH-30: 3 a day of rest."""
    sheet = tmp_path / "h.yaml"
    sheet.write_text((EXAMPLES / "hilde.yaml").read_text())
    assert affray("wound", str(sheet), "7", "--affliction", "Broken leg").returncode == 0
    data = yaml.safe_load(sheet.read_text())
    assert (data["wounds"], data["afflictions"]) == (7, ["Broken leg"])
    assert affray("heal", str(sheet), "--days", "2", "--rest").returncode == 0
    assert yaml.safe_load(sheet.read_text())["wounds"] == 1


def test_new_witchhammer_an_unaffordable_hat_is_refused_and_asked_for_again(tmp_path: Path) -> None:
    """The user's step: ``affray character new witchhammer`` with a 500-silver crown and 34 silver on hand (WH-37,
    ruling WH-C9: silver never goes below 0). The builder used to drop the hat and save the sheet without asking
    again; it says why and asks for the hat again, and the next answers (Hilde's hat) are the sheet's."""
    out = tmp_path / "hilde.yaml"
    hat = HILDE_ANSWERS.index("grey felt hat")
    lines = [*HILDE_ANSWERS[:hat], "golden crown", "500", "", "y", "gilded cap", "20", "", "n", *HILDE_ANSWERS[hat:]]
    result = affray("new", "witchhammer", "--seed", "3", "--out", str(out), stdin=answers(*lines))
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "refused: hat: golden crown costs 500 silver; 34 on hand; name another hat, or leave it blank" in text
    assert "refused: an unpaid hat would buy the party's leadership for nothing; name another hat" in text
    assert text.count("Hat (a name; blank for none)") == 3
    assert yaml.safe_load(out.read_text()) == yaml.safe_load((EXAMPLES / "hilde.yaml").read_text())


def test_new_witchhammer_shows_each_table_right_before_its_question(tmp_path: Path) -> None:
    """The user's step: ``affray character new witchhammer`` at the equipment. The armour table came before the
    weapon's question, so the weapon was asked under a table of armour; each table now comes right before its own
    question, the first question asked after it (WH-32..WH-36)."""
    result = affray(
        "new", "witchhammer", "--seed", "3", "--out", str(tmp_path / "h.yaml"), stdin=answers(*HILDE_ANSWERS)
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    questions = {
        "Attributes (WH-32": "Buy an attribute or a skill",
        "Schools (WH-33": "School point left",
        "Techniques you can learn (WH-34)": "Learn a technique",
        "Traits": "Take a trait",
        "Armour (WH-36)": "Armour set (id)",
    }
    others = ["Weapon (one;", "Misc item", "Hat (a name"]
    for title, question in questions.items():
        shown = text.index(title)
        first = min((text.find(q, shown), q) for q in [*questions.values(), *others] if text.find(q, shown) >= 0)
        assert first[1] == question, f"after the table {title!r} the first question is {first[1]!r}"

"""The hostile inputs: files and command lines a careless or hostile user gives every command.

Each :class:`Case` is a command line (``{tmp}`` is the test's folder), the files it writes there first, the text the
error must contain (the file or the flag it names), and the files that must not be written or changed. The test
runs each case in-process and asserts a non-zero exit, no traceback, the message, and nothing written.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[2]
DIR = object()  # a file entry that is a folder
FIFO = object()  # a file entry that is a named pipe


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    expect: str
    files: dict[str, Any] = field(default_factory=dict)
    stdin: str = ""
    absent: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    code: int | None = None


HUD = """ruleset: hud
name: Bridge
mode: nerdified
sides:
  - name: witcher
    combatants: [{id: vesna, use: vesna}]
  - name: watch
    combatants: [{id: hald, use: sergeant}]
"""
WH = """ruleset: witchhammer
name: Yard
size: [6, 5]
sides:
  - name: hunters
    combatants: [{id: bruna, use: bruna, at: [2, 2]}]
  - name: sparring
    combatants: [{id: tomas, use: tomas, at: [3, 2]}]
"""
SHEET = (ROOT / "examples" / "characters" / "hilde.yaml").read_text()

BILLION_LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)
YAML_BAD: dict[str, Any] = {
    "latin1": b"ruleset: hud\nname: \xe9t\xe9\n",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "nul": b"ruleset: hud\x00\n",
    "empty": b"",
    "syntax": b"ruleset: [hud\n",
    "tab": b"ruleset:\n\thud\n",
    "alias_bomb": "ruleset: hud\n" + BILLION_LAUGHS,
    "recursive_alias": "ruleset: hud\nsides: &s [*s]\n",
    "list_top": "- ruleset\n- hud\n",
    "scalar_top": "42\n",
    "oversize": "# " + "x" * (3 * 1024 * 1024) + "\n",
    "deep": "ruleset: hud\nsides: " + "[" * 200 + "]" * 200 + "\n",
    "unknown_ruleset": "ruleset: chess\nsides: []\n",
    "ruleset_number": "ruleset: 5\n",
    "python_tag": "!!python/object/apply:os.system ['echo pwned']\n",
    # Whole numbers past what Python reads from text (4,300 digits) or past 64 bits once read (hex, underscores)
    "int_4301_digits": "ruleset: hud\nname: " + "9" * 4301 + "\n",
    "int_hex_4000": "ruleset: hud\nname: 0x" + "f" * 4000 + "\n",
    "int_underscores": "ruleset: hud\nname: 1_0" + "0" * 5000 + "\n",
    "date_that_is_not": "ruleset: hud\nname: 2020-13-45\n",  # a plain scalar the loader reads as a date
    "bool_tag_maybe": "ruleset: hud\nname: !!bool maybe\n",
    "missing": None,
    "folder": DIR,
    "fifo": FIFO,
}
YAML_COMMANDS: dict[str, tuple[str, ...]] = {
    "fight": ("fight", "{tmp}/bad.yaml"),
    "sim": ("sim", "{tmp}/bad.yaml", "-n", "10", "--workers", "1"),
    "sweep": ("sweep", "{tmp}/bad.yaml", "--param", "vesna.stats.endurance=1..2", "-n", "10", "--workers", "1"),
    "content": ("content", "check", "{tmp}/bad.yaml"),
    "duel": ("odds", "duel", "{tmp}/bad.yaml"),
    "check": ("character", "check", "{tmp}/bad.yaml"),
    "show": ("character", "show", "{tmp}/bad.yaml"),
}


#: What ``content check`` says of the YAML values above that no type can hold: the line and the bound.
YAML_VALUES = {
    "int_4301_digits": "line 2: valid YAML (whole numbers of 64 bits",
    "int_hex_4000": "line 2: valid YAML (whole numbers of 64 bits",
    "int_underscores": "line 2: valid YAML (whole numbers of 64 bits",
    "date_that_is_not": "line 2: valid YAML (a value its type can hold (month must be in 1..12))",
    "bool_tag_maybe": "line 2: valid YAML (a value its type can hold",
}


def yaml_cases() -> list[Case]:
    out = []
    for kind, content in YAML_BAD.items():
        for name, argv in YAML_COMMANDS.items():
            files = {} if content is None else {"bad.yaml": content}
            out.append(Case(f"yaml-{kind}-{name}", argv, "bad.yaml", files))
    out += [
        Case(f"yaml-{kind}-says-why", YAML_COMMANDS["content"], YAML_VALUES[kind], {"bad.yaml": YAML_BAD[kind]})
        for kind in YAML_VALUES
    ]
    return out


@cache
def good_log() -> dict[str, Any]:
    """A finished HuD fight's log (seed 7), the base of the log mutations."""
    import affray
    from affray.core.log import export_log

    scenario = affray.load_scenario(ROOT / "examples" / "hud" / "nerdified_duel.yaml")
    match = scenario.start(7)
    affray.play(match, scenario.policies(match))
    return export_log(match)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(data: dict[str, Any]) -> Any:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = data
        for p in parents:
            target = target[p]
        if value is DIR:
            del target[last]
        else:
            target[last] = value
        return data

    return change


def _rolled_index() -> int:
    return next(i for i, e in enumerate(good_log()["setup_events"]) if e["type"] == "rolled")


LOG_BAD: dict[str, Callable[[dict[str, Any]], Any]] = {
    "actions_null": _set("records", None),
    "action_number": _set("records", [5]),
    "action_no_type": _set("records.0.action", {}),
    "action_seat_number": _set("records.0.seat", 3),
    "action_seq_text": _set("records.0.seq", "one"),
    "action_unknown": _set("records.0.action", {"type": "nonsense"}),
    "events_not_list": _set("records.0.events", "x"),
    "unknown_ruleset": _set("ruleset", "chess"),
    "changed_ruleset": _set("ruleset", "witchhammer"),
    "ruleset_number": _set("ruleset", 7),
    "seed_not_hex": _set("seed", "zz"),
    "seed_odd": _set("seed", "abc"),
    "seed_number": _set("seed", 12),
    "seed_hidden": _set("seed", None),
    "setup_empty": _set("setup", {}),
    "setup_list": _set("setup", []),
    "setup_mistyped": _set("setup", {"combatants": 5}),
    "setup_missing": _set("setup", DIR),
    "options_list": _set("options", []),
    "option_out_of_range": _set("options.round_limit", 0),
    "option_unknown": _set("options.nonsense", 1),
    "commitment_short": _set("commitment", "ab"),
    "commitment_wrong": _set("commitment", "0" * 64),
    "seats_list": _set("seats", []),
    "version_4": _set("version", 4),
    "v1_actions_null": lambda d: {**{k: v for k, v in d.items() if k != "records"}, "version": 1, "actions": None},
    "undo_to_text": lambda d: {
        **d,
        "records": [{"seq": 0, "kind": "undo", "seat": "gm", "actor": "", "action": {"type": "undo", "to": "x"}}],
    },
    "kind_unknown": _set("records.0.kind", "cheat"),
    "format_missing": _set("format", DIR),
    "top_list": lambda d: [d],
}


def _rolled(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], Any]:
    def apply(data: dict[str, Any]) -> Any:
        change(data["setup_events"][_rolled_index()])
        return data

    return apply


LOG_BAD.update(
    {
        "dice_text": _rolled(lambda e: e["roll"].update(dice="x")),
        "die_sides_huge": _rolled(lambda e: e["roll"]["dice"][0].update(sides=10**30)),
        "die_value_changed": _rolled(
            lambda e: e["roll"]["dice"][0].update(value=e["roll"]["dice"][0]["value"] % 11 + 1)
        ),
    }
)
LOG_RAW: dict[str, Any] = {
    "not_json": "{",
    "binary": b"\x00\x01\x02",
    "latin1": b'{"format": "\xe9"}',
    "deep_json": "[" * 100_000 + "]" * 100_000,
    "missing": None,
    "folder": DIR,
}
LOG_COMMANDS: dict[str, tuple[str, ...]] = {
    "verify": ("verify", "{tmp}/log.json"),
    "replay": ("replay", "{tmp}/log.json"),
    "resume": ("fight", "--resume", "{tmp}/log.json", "--save", "{tmp}/new-save.json"),
}


def log_cases() -> list[Case]:
    out = []
    contents: dict[str, Any] = {k: json.dumps(f(copy.deepcopy(good_log()))) for k, f in LOG_BAD.items()}
    contents.update(LOG_RAW)
    for kind, content in contents.items():
        for name, argv in LOG_COMMANDS.items():
            files = {} if content is None else {"log.json": content}
            out.append(
                Case(
                    f"log-{kind}-{name}",
                    argv,
                    "log.json",
                    files,
                    absent=("new-save.json",),
                    unchanged=("log.json",) if content not in (None, DIR) else (),
                )
            )
    return out


def _scenario(extra: str, base: str = HUD) -> dict[str, Any]:
    return {"s.yaml": base.replace("sides:", extra + "sides:", 1)}


OPTION_CASES = {  # each accepted before the options were range-checked
    "round_limit_0": ("options: {round_limit: 0}\n", HUD, "round_limit"),
    "default_actions_0": ("options: {default_actions_per_round: 0}\n", HUD, "default_actions_per_round"),
    "riposte_margin_-100": ("options: {riposte_margin: -100}\n", HUD, "riposte_margin"),
    "pursuit_escape_gap_-5": ("options: {pursuit_escape_gap: -5}\n", HUD, "pursuit_escape_gap"),
    "vignette_limit_-1": ("options: {vignette_limit: -1}\n", WH, "vignette_limit"),
    "drama_timer_-90": ("options: {drama_timer_seconds: -90}\n", WH, "drama_timer_seconds"),
    "option_unknown": ("options: {nonsense: 1}\n", HUD, "nonsense"),
    "option_wrong_type": ("options: {round_limit: many}\n", HUD, "round_limit"),
    "default_card": ("options: {default_card: nonsense}\n", WH, "default_card"),
    "map_huge": ("", WH.replace("size: [6, 5]", "size: [100000, 100000]"), "size"),
    "map_zero": ("", WH.replace("size: [6, 5]", "size: [0, 5]"), "size"),
    "content_missing": ("content: [nope.yaml]\n", HUD, "nope.yaml"),
}


def scenario_cases() -> list[Case]:
    out = []
    for kind, (extra, base, expect) in OPTION_CASES.items():
        files = _scenario(extra, base)
        out += [
            Case(
                f"scenario-{kind}-fight",
                ("fight", "{tmp}/s.yaml", "--log", "{tmp}/out.json"),
                expect,
                files,
                absent=("out.json",),
            ),
            Case(f"scenario-{kind}-check", ("content", "check", "{tmp}/s.yaml"), expect, files),
            Case(f"scenario-{kind}-sim", ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "1"), expect, files),
        ]
    hp = {"s.yaml": HUD.replace("{id: vesna, use: vesna}", "{id: vesna, use: vesna, hp: 300}")}
    health = {"s.yaml": WH.replace("at: [2, 2]}", "at: [2, 2], health: 99}")}
    human = {"s.yaml": HUD.replace("use: sergeant}", "use: sergeant, controller: human}")}
    binary_sheet = {"s.yaml": HUD.replace("use: vesna}", "sheet: hero.yaml}"), "hero.yaml": b"\x00\xff"}
    hp0 = {"s.yaml": HUD.replace("{id: vesna, use: vesna}", "{id: vesna, use: vesna, hp: 0}")}
    hp_neg = {"s.yaml": HUD.replace("{id: vesna, use: vesna}", "{id: vesna, use: vesna, hp: -5}")}
    # A WitchHammer combatant starting at 0 Health is not refused: WH-22 puts it out of the fight before the first
    # vignette, with a Defeated event (tests/witchhammer); so it is no hostile case.
    for kind, files, expect in (
        ("hp_over_max", hp, "hp"),
        ("health_over_max", health, "health"),
        ("hp_zero", hp0, "combatants[0].hp"),
        ("hp_negative", hp_neg, "got -5"),
        ("sheet_binary", binary_sheet, "hero.yaml"),
    ):
        out += [
            Case(f"scenario-{kind}-fight", ("fight", "{tmp}/s.yaml"), expect, files),
            Case(f"scenario-{kind}-check", ("content", "check", "{tmp}/s.yaml"), expect, files),
        ]
    out.append(
        Case(
            "scenario-human-nobody",
            ("fight", "{tmp}/s.yaml", "--log", "{tmp}/out.json"),
            "--play",
            human,
            absent=("out.json",),
        )
    )
    out.append(Case("scenario-human-nobody-json", ("fight", "{tmp}/s.yaml", "--json"), "--play", human))
    return out


S = ("fight", "{tmp}/s.yaml")
FLAG_CASES: list[Case] = [
    Case("roll-bad", ("roll", "3x6"), "dice notation"),
    Case("roll-empty", ("roll", ""), "dice notation"),
    Case("roll-zero-sides", ("roll", "1d0"), "sides"),
    Case("roll-too-many", ("roll", "1001d6"), "at most 1000 dice"),
    Case("roll-too-many-in-all", ("roll", "600d6+600d6"), "at most 1000 dice"),
    Case("roll-huge-bonus", ("roll", "1d6+99999999999999999999b"), "at most 1000 dice"),
    Case("roll-long", ("roll", "1d6+" * 80 + "1"), "at most 200 characters"),
    Case("roll-minus-bonus", ("roll", "1d6-1b"), "plus sign"),
    Case("roll-bonus-two-groups", ("roll", "2d6+1d4+1b"), "exactly one dice group"),
    Case("roll-seed-text", ("roll", "1d6", "--seed", "x"), "--seed"),
    Case("odds-dice-bad", ("odds", "dice", "3x6"), "'x6'"),
    Case("odds-dice-operator", ("odds", "dice", "3d6 => 2"), "not a comparison"),
    Case("odds-dice-two-comparisons", ("odds", "dice", "1 < 2 < 3"), "2 comparisons"),
    Case("odds-dice-no-side", ("odds", "dice", "3d6 >="), "nothing on the right"),
    Case("odds-dice-totals", ("odds", "dice", "1000d1000"), "possible totals"),
    Case("odds-dice-work", ("odds", "dice", "2d6 > 100d100"), "too large to work out exactly"),
    Case("odds-dice-huge-bonus", ("odds", "dice", "1d6+99999999999999999999b"), "at most 1000 dice"),
    Case("odds-dice-long", ("odds", "dice", "1d6+" * 120 + "1"), "at most 400 characters"),
    Case("odds-dice-long-side", ("odds", "dice", "1d6+" * 60 + "1 > 1"), "at most 200 characters"),
    Case("odds-dice-plot", ("odds", "dice", "3d6", "--plot", "{tmp}/odds.txt"), ".png or .svg", absent=("odds.txt",)),
    Case(
        "odds-sc-damage-huge",
        ("odds", "spellchrome", "attack", "--bonus", "1", "--defense", "10", "--damage", "1000d1000"),
        "--damage",
    ),
    Case(
        "odds-sc-damage-over",
        ("odds", "spellchrome", "attack", "--bonus", "1", "--defense", "10", "--damage", "200d100"),
        "--damage",
    ),
    Case(
        "odds-sc-damage-text",
        ("odds", "spellchrome", "attack", "--bonus", "1", "--defense", "10", "--damage", "abc"),
        "dice notation",
    ),
    Case(
        "odds-sc-hp-0",
        ("odds", "spellchrome", "attack", "--bonus", "1", "--defense", "10", "--damage", "1d6", "--hp", "0"),
        "--hp",
    ),
    Case(
        "odds-sc-dr",
        ("odds", "spellchrome", "attack", "--bonus", "1", "--defense", "10", "--damage", "1d6", "--dr", "-1"),
        "--dr",
    ),
    Case(
        "odds-sc-crit",
        (
            "odds",
            "spellchrome",
            "attack",
            "--bonus",
            "1",
            "--defense",
            "10",
            "--damage",
            "1d6",
            "--crit-multiplier",
            "0",
        ),
        "--crit-multiplier",
    ),
    Case("odds-warp-negative", ("odds", "warp", "attack", "--attack", "-1", "--defense", "2"), "negative"),
    Case("odds-warp-huge", ("odds", "warp", "attack", "--attack", "500", "--defense", "2"), "dice"),
    Case(
        "odds-wh-poise",
        (
            "odds",
            "witchhammer",
            "attack",
            "--attack",
            "5",
            "--defense",
            "3",
            "--target-poise",
            "-1",
            "--target-health",
            "3",
        ),
        "--target-poise",
    ),
    Case(
        "odds-wh-crit-wound",
        ("odds", "witchhammer", "attack", "--attack", "5", "--defense", "3", "--crit-wound", "x"),
        "--crit-wound",
    ),
    Case(
        "odds-wh-malus",
        ("odds", "witchhammer", "save", "--bonus", "1", "--difficulty", "10", "--malus", "3"),
        "--malus",
    ),
    Case("odds-hud-text", ("odds", "hud", "exchange", "--riposte-margin", "x"), "--riposte-margin"),
    Case("fight-log-no-folder", (*S, "--log", "{tmp}/nodir/x.json"), "--log", _scenario(""), absent=("nodir",)),
    Case("fight-log-folder", (*S, "--log", "{tmp}"), "--log", _scenario("")),
    Case("fight-log-ext", (*S, "--log", "{tmp}/x.txt"), "--log", _scenario(""), absent=("x.txt",)),
    Case(
        "fight-save-ext", (*S, "--play", "vesna", "--save", "{tmp}/x.txt"), "--save", _scenario(""), absent=("x.txt",)
    ),
    Case(
        "fight-policy-nobody",
        (*S, "--policy", "nobody=random", "--log", "{tmp}/o.json"),
        "--policy",
        _scenario(""),
        absent=("o.json",),
    ),
    Case("fight-policy-unknown", (*S, "--policy", "witcher=nonsense"), "nonsense", _scenario("")),
    Case("fight-policy-syntax", (*S, "--policy", "noequals"), "--policy", _scenario("")),
    Case("fight-policy-empty", (*S, "--policy", "="), "--policy", _scenario("")),
    Case("fight-play-nobody", (*S, "--play", "nosuch"), "--play", _scenario("")),
    Case("fight-nothing", ("fight",), "--resume"),
    Case("fight-both", (*S, "--resume", "{tmp}/s.json"), "--resume", _scenario("")),
    Case("fight-resume-missing", ("fight", "--resume", "{tmp}/none.json"), "none.json"),
    Case("fight-seed-text", (*S, "--seed", "abc"), "--seed", _scenario("")),
    Case("sim-n-0", ("sim", "{tmp}/s.yaml", "-n", "0"), "-n", _scenario("")),
    Case("sim-workers-0", ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "0"), "--workers", _scenario("")),
    Case("sim-workers-neg", ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "-1"), "--workers", _scenario("")),
    Case("sim-chunk-0", ("sim", "{tmp}/s.yaml", "-n", "5", "--chunk", "0"), "--chunk", _scenario("")),
    Case(
        "sim-plot-ext",
        ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "1", "--plot", "{tmp}/p.txt"),
        "--plot",
        _scenario(""),
        absent=("p.txt",),
    ),
    Case(
        "sim-plot-no-folder",
        ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "1", "--plot", "{tmp}/no/p.png"),
        "--plot",
        _scenario(""),
    ),
    Case(
        "sim-plot-folder",
        ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "1", "--plot", "{tmp}"),
        "--plot",
        _scenario(""),
    ),
    Case(
        "sim-policy-nobody",
        ("sim", "{tmp}/s.yaml", "-n", "5", "--workers", "1", "--policy", "nobody=random"),
        "--policy",
        _scenario(""),
    ),
    Case("sim-n-text", ("sim", "{tmp}/s.yaml", "-n", "many"), "-n", _scenario("")),
    Case("sweep-param-syntax", ("sweep", "{tmp}/s.yaml", "--param", "x"), "--param", _scenario("")),
    Case(
        "sweep-param-backwards",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=5..1"),
        "--param",
        _scenario(""),
    ),
    Case(
        "sweep-param-too-many",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=1..1000000000"),
        "--param",
        _scenario(""),
    ),
    Case(
        "sweep-param-nobody",
        ("sweep", "{tmp}/s.yaml", "--param", "nobody.stats.endurance=1..2", "-n", "5", "--workers", "1"),
        "nobody",
        _scenario(""),
    ),
    Case(
        "sweep-precision-0",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=4..5", "--precision", "0"),
        "--precision",
        _scenario(""),
    ),
    Case(
        "sweep-precision-neg",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=4..5", "--precision", "-1"),
        "--precision",
        _scenario(""),
    ),
    Case(
        "sweep-precision-big",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=4..5", "--precision", "2"),
        "--precision",
        _scenario(""),
    ),
    Case(
        "sweep-workers-0",
        ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=4..5", "--workers", "0"),
        "--workers",
        _scenario(""),
    ),
    Case(
        "sweep-plot-ext",
        (
            "sweep",
            "{tmp}/s.yaml",
            "--param",
            "hald.stats.endurance=4..5",
            "-n",
            "5",
            "--workers",
            "1",
            "--plot",
            "{tmp}/p.gif",
        ),
        "--plot",
        _scenario(""),
        absent=("p.gif",),
    ),
    Case(
        "sweep-n-0", ("sweep", "{tmp}/s.yaml", "--param", "hald.stats.endurance=4..5", "-n", "0"), "-n", _scenario("")
    ),
    Case("content-missing", ("content", "check", "{tmp}/none.yaml"), "none.yaml"),
    Case("content-one-missing", ("content", "check", "{tmp}/s.yaml", "{tmp}/none.yaml"), "none.yaml", _scenario("")),
    Case("content-empty-folder", ("content", "check", "{tmp}/empty"), "empty", {"empty": DIR}),
    Case("content-list-unknown-ruleset", ("content", "list", "chess"), "known rulesets: hud", code=2),
    Case("content-list-unknown-kind", ("content", "list", "warp", "spells"), "Kinds: traits", code=2),
    Case("content-list-missing-content", ("content", "list", "warp", "--content", "{tmp}/none.yaml"), "none.yaml"),
    Case(
        "content-list-broken-content",
        ("content", "list", "hud", "--content", "{tmp}/bad.yaml"),
        "bad.yaml",
        {"bad.yaml": "ruleset: hud\nweapons: {axe: {name: Axe, kind: spoon}}\n"},
    ),
    Case("options-unknown", ("options", "chess"), "chess"),
    Case("character-check-scenario", ("character", "check", "{tmp}/s.yaml"), "s.yaml", _scenario("")),
    Case("character-check-missing", ("character", "check", "{tmp}/none.yaml"), "none.yaml"),
    Case(
        "character-check-unpaid-hat",
        ("character", "check", "{tmp}/h.yaml"),
        "hat: grey felt hat",
        {"h.yaml": SHEET.replace("what: 'hat: grey felt hat'", "what: 'a loaf'")},
    ),
    Case(
        "character-check-house-rule-range",
        ("character", "check", "{tmp}/h.yaml"),
        "money_die",
        {"h.yaml": SHEET + "house_rules: {money_die: 0}\n"},
    ),
    Case(
        "character-spend-nothing",
        ("character", "spend", "{tmp}/h.yaml"),
        "nothing to spend",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case(
        "character-spend-out-no-folder",
        ("character", "spend", "{tmp}/h.yaml", "--attribute", "attack", "--out", "{tmp}/no/x.yaml"),
        "--out",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case(
        "character-spend-out-ext",
        ("character", "spend", "{tmp}/h.yaml", "--attribute", "attack", "--out", "{tmp}/x.txt"),
        "--out",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
        absent=("x.txt",),
    ),
    Case(
        "character-spend-refused",
        ("character", "spend", "{tmp}/h.yaml", "--school", "nonsense"),
        "nonsense",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case(
        "character-advance-reward",
        ("character", "advance", "{tmp}/h.yaml", "--reward", "nope"),
        "nope",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case(
        "character-wound-0",
        ("character", "wound", "{tmp}/h.yaml", "0"),
        "wounds",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case(
        "character-heal-days-0",
        ("character", "heal", "{tmp}/h.yaml", "--days", "0"),
        "--days",
        {"h.yaml": SHEET},
        unchanged=("h.yaml",),
    ),
    Case("character-new-chess", ("character", "new", "chess"), "chess"),
    Case("character-new-out-folder", ("character", "new", "witchhammer", "--out", "{tmp}/no/x.yaml"), "--out"),
    Case(
        "character-leader-twins",
        ("character", "leader", "{tmp}/h.yaml", "{tmp}/h2.yaml"),
        "Hilde Brandt",
        {"h.yaml": SHEET, "h2.yaml": SHEET},
    ),
    Case(
        "character-show-latin1",
        ("character", "show", "{tmp}/h.yaml"),
        "h.yaml",
        {"h.yaml": SHEET.encode() + b"# \xe9\n"},
    ),
    Case("verify-folder", ("verify", "{tmp}"), "folder"),
    Case("unknown-command", ("attack",), "attack"),
]


def all_cases() -> list[Case]:
    return yaml_cases() + log_cases() + scenario_cases() + FLAG_CASES

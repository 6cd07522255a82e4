"""``affray character``: build a character by prompts, check, show, advance and spend, pick the party leader.

Exit codes: 0 done; 1 the sheet breaks the rules (``check``) or the rules refuse a change (``spend``, ``advance``...),
nothing written; 2 the command cannot run (no such file, not a sheet, unknown ruleset, bad arguments).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from affray.characters.sheet import (
    Refused,
    Summary,
    check,
    library,
    load,
    markdown,
    rules_for,
    sheet_rules,
    write_sheet,
)
from affray.cli.render import CliError, console, escape, printable
from affray.core.content import ContentError, ContentLibrary, read_yaml, validate
from affray.core.engine import ruleset_names
from affray.core.files import FileProblem, check_output_path
from affray.core.rng import VerifiableRNG, new_secret_seed, seed_from_int
from affray.rulesets.witchhammer.characters import advancement as adv
from affray.rulesets.witchhammer.characters import build as wh
from affray.rulesets.witchhammer.characters.hats import party_leader
from affray.rulesets.witchhammer.characters.sheet import BuildRules, WitchHammerSheet

character_app = typer.Typer(no_args_is_help=True, help="Build, check, show and advance character sheets.")

ContentOpt = Annotated[list[Path] | None, typer.Option("--content", help="extra content files or folders")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="write the result here instead of over FILE")]
SheetArg = Annotated[Path, typer.Argument(help="a character sheet (YAML)")]


def _ruleset(name: str) -> str:
    try:
        rules_for(name)
    except KeyError:
        raise CliError(f"unknown ruleset '{name}'; known rulesets: {', '.join(ruleset_names())}.") from None
    return name


def _load(path: Path, content: list[Path] | None) -> tuple[Any, Any, ContentLibrary, list[str]]:
    if not path.is_file():
        raise CliError(f"{path}: no such file.")
    return load(path, content or [])


def _witchhammer(path: Path, content: list[Path] | None) -> tuple[WitchHammerSheet, ContentLibrary]:
    _, sheet, lib, _ = _load(path, content)
    if not isinstance(sheet, WitchHammerSheet):
        raise CliError(f"{path}: a {sheet.ruleset} sheet; points, rewards and spending are WitchHammer's "
                       "(WH-31..WH-35).")
    return sheet, lib


Change = Callable[[WitchHammerSheet], WitchHammerSheet]


def _with(fn: Callable[[WitchHammerSheet, str], WitchHammerSheet], arg: str) -> Change:
    """``fn`` with its second argument bound (one change per repeated option)."""
    return lambda sheet: fn(sheet, arg)


def _apply(path: Path, out: Path | None, sheet: WitchHammerSheet, lib: ContentLibrary,
           changes: list[tuple[str, Change]], dry_run: bool = False) -> None:
    """Apply every change in order, all or nothing; then check the result and write it."""
    _writable(out or path)
    for label, change in changes:
        try:
            sheet = change(sheet)
        except Refused as exc:
            raise CliError(f"refused ({label}): {exc}; nothing was written.", code=1) from None
        console.print(f"[green]✓[/] {escape(label)}")
    target = out or path
    notes = check(rules_for("witchhammer"), sheet, lib, target)
    left = wh.points_left(sheet, lib)
    console.print("points left: " + ", ".join(f"{n} {kind}" for kind, n in left.items()))
    for note in notes:
        console.print(f"[yellow]note:[/] {escape(note)}")
    if dry_run:
        console.print("dry run: nothing was written")
        return
    _write(sheet, target)
    console.print(f"saved {escape(target)}")


def _writable(target: Path) -> None:
    """Refuse before any change a sheet path that cannot be written (a folder, no such folder, not .yaml)."""
    try:
        check_output_path(target, (".yaml", ".yml"), "--out")
    except FileProblem as exc:
        raise CliError(str(exc)) from None


def _write(sheet: Any, target: Path) -> None:
    try:
        write_sheet(sheet, target)
    except OSError as exc:
        raise CliError(f"{target}: cannot write the sheet ({exc.strerror}).") from None


def render(summary: Summary) -> None:
    """A summary as Rich tables."""
    console.print(f"[bold]{escape(summary.title)}[/]")
    for title, rows in summary.sections:
        if not rows:
            continue
        table = Table(title=escape(title), title_justify="left", show_header=False)
        table.add_column(style="cyan")
        table.add_column()
        for label, value in rows:
            table.add_row(escape(label), escape(value))
        console.print(table)
    for note in summary.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")


@character_app.command("new")
def new(ruleset: Annotated[str, typer.Argument(help="hud, warp, spellchrome or witchhammer")],
        out: Annotated[Path | None, typer.Option("--out", help="save the sheet here (else asked)")] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="fixed seed for the money roll (reproducible)")]
        = None, content: ContentOpt = None,
        force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False) -> None:
    """Build a character by prompts, showing points left and refusing what the rules refuse."""
    from affray.cli.character_new import ask, build

    name = _ruleset(ruleset)
    if out is not None and out.exists() and not force:
        raise CliError(f"{out} exists; choose another --out or add --force.")
    if out is not None:
        _writable(out)
    lib = library(name, content or [])
    rng = VerifiableRNG(seed_from_int(seed) if seed is not None else new_secret_seed())
    sheet = build(name, lib, rng)
    target = out
    while target is None or (target.exists() and not force):
        if target is not None:
            console.print(f"{escape(str(target))} exists; give another name (or use --force)")
        target = Path(ask("Save to file", default=f"{_slug(sheet.name)}.yaml"))
    check(rules_for(name), sheet, lib, target)
    _write(sheet, target)
    render(rules_for(name).summary(sheet, lib))
    console.print(f"saved {escape(target)}")


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_") or "character"


@character_app.command("check")
def check_cmd(files: Annotated[list[Path], typer.Argument(help="character sheets")], content: ContentOpt = None
              ) -> None:
    """Check sheets: the schema, then the character rules. Every problem names the file and the field."""
    failed = False
    for path in files:
        if not path.is_file():
            raise CliError(f"{path}: no such file.")
        data = read_yaml(path)
        rules = sheet_rules(data, path)  # not YAML, not a sheet, or an unknown ruleset: exit 2
        try:
            sheet = validate(rules.model, data, path)
            notes = check(rules, sheet, library(rules.ruleset, content or []), path)
        except ContentError as exc:
            from affray.cli.render import fail
            for line in str(exc).splitlines():
                fail(line)
            failed = True
            continue
        console.print(f"[green]ok[/]: {escape(str(path))} is a legal {rules.ruleset} character ({escape(sheet.name)})")
        for note in notes:
            console.print(f"  [yellow]note:[/] {escape(note)}")
    if failed:
        raise typer.Exit(1)


@character_app.command("show")
def show(path: SheetArg, as_markdown: Annotated[bool, typer.Option("--markdown", help="print Markdown")] = False,
         content: ContentOpt = None) -> None:
    """Print a sheet with every derived number (points left, statistics, saves...)."""
    rules, sheet, lib, _ = _load(path, content)
    summary = rules.summary(sheet, lib)
    if as_markdown:
        print(printable(markdown(summary), keep="\n"))
    else:
        render(summary)


@character_app.command("advance")
def advance(path: SheetArg,
            reward: Annotated[list[str], typer.Option("--reward", help="hunt, defeat or witch (WH-35); repeatable")],
            note: Annotated[str, typer.Option("--note", help="the adventure, for the record")] = "",
            out: OutOpt = None, content: ContentOpt = None) -> None:
    """Grant adventure rewards (WH-35): hunt +1 Technique; defeat or a good job +1 Trait; witch +3 Attribute,
    +2 Technique, +1 School. Spend them with 'affray character spend'."""
    sheet, lib = _witchhammer(path, content)
    for r in reward:
        if r not in wh.REWARDS:
            raise CliError(f"no reward '{r}'; one of {', '.join(wh.REWARDS)} (WH-35).")
    changes = [(f"reward: {r} ({_grant(r)})", _with(lambda s, x: adv.grant_reward(s, x, note), r)) for r in reward]
    _apply(path, out, sheet, lib, changes)


def _grant(reward: str) -> str:
    return ", ".join(f"+{n} {kind}" for kind, n in wh.REWARDS[reward].items() if n)


@character_app.command("spend")
def spend(path: SheetArg,
          trade_school: Annotated[int, typer.Option("--trade-school", min=0,
                                                    help="trade this many School points for 5 Technique each")] = 0,
          school: Annotated[list[str] | None, typer.Option("--school", help="learn a school or its next level")]
          = None,
          attribute: Annotated[list[str] | None, typer.Option("--attribute", help="+1 attack, defense, max_poise, "
                                                              "init, solid_damage, con/agility/will/fear_defense")]
          = None,
          skill: Annotated[list[str] | None, typer.Option("--skill", help="+1 to a skill (2 Attribute points)")]
          = None,
          technique: Annotated[list[str] | None, typer.Option("--technique", help="learn a card or passive")] = None,
          trait: Annotated[list[str] | None, typer.Option("--trait", help="take a trait")] = None,
          dry_run: Annotated[bool, typer.Option("--dry-run", help="check, print, write nothing")] = False,
          out: OutOpt = None, content: ContentOpt = None) -> None:
    """Spend points (WH-32..WH-34), all or nothing, in this order: trades, schools, attributes, skills,
    techniques, traits. Options repeat: --attribute attack --attribute attack buys +2 Attack."""
    sheet, lib = _witchhammer(path, content)
    changes: list[tuple[str, Change]] = []
    changes += [("trade a School point for 5 Technique points", lambda s: adv.trade_school_point(s, lib))
                for _ in range(trade_school)]
    changes += [(f"school: {x}", _with(lambda s, v: adv.learn_school(s, v, lib), x)) for x in school or []]
    changes += [(f"attribute: {x}", _with(lambda s, v: adv.buy_attribute(s, v, lib), x)) for x in attribute or []]
    changes += [(f"skill: {x}", _with(lambda s, v: adv.buy_skill(s, v, lib), x)) for x in skill or []]
    changes += [(f"technique: {x}", _with(lambda s, v: adv.learn_technique(s, v, lib), x)) for x in technique or []]
    changes += [(f"trait: {x}", _with(lambda s, v: adv.take_trait(s, v, lib), x)) for x in trait or []]
    if not changes:
        raise CliError("nothing to spend: give --attribute, --skill, --school, --trade-school, --technique or "
                       "--trait.")
    _apply(path, out, sheet, lib, changes, dry_run)


@character_app.command("wound")
def wound_cmd(path: SheetArg, wounds: Annotated[int, typer.Argument(min=1, help="Wounds taken")],
              affliction: Annotated[list[str] | None, typer.Option("--affliction", help="a WH-23 table entry")]
              = None, out: OutOpt = None, content: ContentOpt = None) -> None:
    """Carry Wounds (and afflictions) out of a fight onto the sheet (WH-19, WH-23)."""
    sheet, lib = _witchhammer(path, content)
    changes: list[tuple[str, Change]] = [(f"{wounds} Wounds", lambda s: adv.wound(s, wounds, lib))]
    changes += [(f"affliction: {a}", _with(adv.afflict, a)) for a in affliction or []]
    _apply(path, out, sheet, lib, changes)


@character_app.command("heal")
def heal_cmd(path: SheetArg, days: Annotated[int, typer.Option("--days", min=1, help="days of healing")],
             rest: Annotated[bool, typer.Option("--rest", help="nothing but rest somewhere comfortable")] = False,
             out: OutOpt = None, content: ContentOpt = None) -> None:
    """Heal 2 Health a day, 3 with full rest (WH-30)."""
    sheet, lib = _witchhammer(path, content)
    _apply(path, out, sheet, lib, [(f"{days} day(s) of {'rest' if rest else 'healing'}",
                                    lambda s: adv.heal(s, days, rest))])


@character_app.command("leader")
def leader(files: Annotated[list[Path], typer.Argument(help="the party's WitchHammer sheets")],
           seed: Annotated[int | None, typer.Option("--seed", help="dice for a roll-off if hats tie")] = None,
           as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False) -> None:
    """The party leader: the PC with the most valuable hat, base value plus attached gems (WH-37)."""
    party: dict[str, Any] = {}
    for path in files:
        sheet, _ = _witchhammer(path, None)
        if sheet.name in party:
            raise CliError(f"two sheets are called {sheet.name}; names must differ.")
        party[sheet.name] = sheet.hat
    rng = VerifiableRNG(seed_from_int(seed)) if seed is not None else None
    result = party_leader(party, rng)
    if as_json:
        print(json.dumps({"leader": result.leader, "reason": result.reason, "tied": result.tied,
                          "roll_off": result.roll_off, "ranking": [list(r) for r in result.ranking]}))
        return
    table = Table(title="Hats (WH-37)", title_justify="left")
    for col in ("character", "hat value", "hat itself"):
        table.add_column(col)
    for who, total, base in result.ranking:
        table.add_row(escape(who), str(total), str(base))
    console.print(table)
    console.print(f"[bold]leader:[/] {escape(result.leader or 'undecided')} — {escape(result.reason)}")


@character_app.command("options")
def options_cmd() -> None:
    """The character builder's numbers and rulings (a sheet may change them under house_rules)."""
    from affray.core.options import describe

    table = Table(title="WitchHammer character builder", title_justify="left")
    for col in ("option", "default", "rule", "meaning"):
        table.add_column(col)
    for info in describe(BuildRules):
        table.add_row(info.name, repr(info.default), info.rule, escape(info.doc))
    console.print(table)

"""``affray odds``: exact odds of single checks and of one-on-one duels, as tables or JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from affray.cli.render import CliError, console, escape
from affray.odds.dist import as_json, mean, prob_json

odds_app = typer.Typer(no_args_is_help=True, help="Exact odds of checks and duels (fractions, not samples).")
hud_app = typer.Typer(no_args_is_help=True, help="Sim HuD checks.")
witchhammer_app = typer.Typer(no_args_is_help=True, help="WitchHammer checks (a d20 against 10).")
warp_app = typer.Typer(no_args_is_help=True, help="WaRP checks (pools of d6).")
spellchrome_app = typer.Typer(no_args_is_help=True, help="Spellchrome checks (d20 against Defense or a DC).")
odds_app.add_typer(hud_app, name="hud")
odds_app.add_typer(witchhammer_app, name="witchhammer")
odds_app.add_typer(warp_app, name="warp")
odds_app.add_typer(spellchrome_app, name="spellchrome")

JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def report(title: str, probabilities: Mapping[str, Fraction], distributions: Mapping[str, Mapping[int, Fraction]],
           as_json_out: bool, extra: Mapping[str, Any] | None = None) -> None:
    """Print probabilities and distributions, each distribution with its mean (expected damage, expected HP
    loss...): JSON in the documented shape (``means: {name: {exact, value}}``), or tables with bars."""
    means = {name: mean(dist) for name, dist in distributions.items()}
    if as_json_out:
        data: dict[str, Any] = {k: prob_json(v) for k, v in probabilities.items()}
        data.update({k: as_json(v) for k, v in distributions.items()})
        data["means"] = {k: prob_json(v) for k, v in means.items()}
        data.update(extra or {})
        print(json.dumps(data))
        return
    table = Table(title=title, title_justify="left")
    table.add_column("event")
    table.add_column("exact", justify="right")
    table.add_column("≈", justify="right")
    for key, p in probabilities.items():
        table.add_row(key.removeprefix("p_").replace("_", " "), f"{p.numerator}/{p.denominator}", f"{float(p):.2%}")
    for name, m in means.items():
        table.add_row(f"mean {name.replace('_', ' ')}", f"{m.numerator}/{m.denominator}", f"{float(m):.4g}")
    console.print(table)
    for name, dist in distributions.items():
        console.print(bars(f"{name.replace('_', ' ')} (mean {float(means[name]):.4g})", dist))


def bars(title: str, dist: Mapping[int, Fraction], width: int = 40) -> Table:
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_column(justify="right")
    table.add_column()
    table.add_column(justify="right")
    top = max(dist.values(), default=Fraction(1))
    for k, p in sorted(dist.items()):
        if p:
            table.add_row(str(k), "█" * max(1, round(width * float(p / top))), f"{float(p):.2%}")
    return table


@hud_app.command("exchange")
def hud_exchange(attack_mod: Annotated[int, typer.Option("--attack-mod")] = 0,
                 defense_mod: Annotated[int, typer.Option("--defense-mod")] = 0,
                 damage_mod: Annotated[int, typer.Option("--damage-mod")] = 0,
                 injury_mod: Annotated[int, typer.Option("--injury-mod")] = 0,
                 riposte_margin: Annotated[int, typer.Option("--riposte-margin", help="WL-B3")] = 6,
                 as_json_out: JsonOpt = False) -> None:
    """Combat Nerdified: the chance of a hit and of a riposte, and the HP-loss distribution (WL-11..WL-13)."""
    from affray.rulesets.hud.odds import exchange_odds

    odds = exchange_odds(attack_mod, defense_mod, damage_mod, injury_mod, riposte_margin)
    report("Sim HuD exchange (d13 + modifiers)", {"p_hit": odds.p_hit, "p_riposte": odds.p_riposte},
           {"hp_loss": odds.hp_loss}, as_json_out)


def _need(ok: bool, message: str) -> None:
    """Refuse a combination of flags with a sentence (exit code 2)."""
    if not ok:
        raise CliError(message)


@witchhammer_app.command("attack")
def witchhammer_attack(
        attack: Annotated[int, typer.Option("--attack", help="the total Attack bonus (card + character + "
                                                             "bonuses - Malus, WH-11)")],
        defense: Annotated[int, typer.Option("--defense", help="the target's normal Defense (card + character, "
                                                               "WH-12)")],
        non_melee: Annotated[bool, typer.Option("--non-melee", help="a ranged, breath or gas attack: half the "
                                                                    "normal Defense (WH-13, WH-B16)")] = False,
        aspect_defense: Annotated[int, typer.Option("--aspect-defense", help="the matching aspect Defenses "
                                                                             "(WH-13, WH-14)")] = 0,
        solid_bonus: Annotated[int, typer.Option("--solid-bonus", help="damage added on a Solid Hit (WH-18, "
                                                                       "WH-B5)")] = 0,
        on_hit: Annotated[int, typer.Option("--on-hit", help="damage added on any hit")] = 0,
        target_poise: Annotated[int | None, typer.Option("--target-poise", help="the target's current Poise")] = None,
        target_health: Annotated[int | None, typer.Option("--target-health",
                                                          help="the target's current Health")] = None,
        target_malus: Annotated[int, typer.Option("--target-malus", help="the target's Malus, 0 or negative: "
                                                                         "lowers its Defense once, never halved "
                                                                         "(WH-12, WH-20, WH-B16)")] = 0,
        crit_wound: Annotated[str, typer.Option("--crit-wound", help="WH-B4: always or on_hit")] = "always",
        solid_on: Annotated[str, typer.Option("--solid-on", help="WH-B5: base or total")] = "base",
        extra_penetration: Annotated[bool, typer.Option("--extra-penetration",
                                                        help="WH-B3's other reading")] = False,
        as_json_out: JsonOpt = False) -> None:
    """One attack: the chance of a hit, a Solid Hit, a Crit, a Fumble; damage; with a target its Wounds and the
    chance it goes down (WH-13..WH-22)."""
    from affray.rulesets.witchhammer.odds import attack_odds

    _need((target_poise is None) == (target_health is None),
          "Give both --target-poise and --target-health, or neither.")
    _need(target_poise is None or target_poise >= 0, "--target-poise cannot be negative.")
    _need(target_health is None or target_health >= 1, "--target-health must be at least 1 (the target is up).")
    _need(crit_wound in ("always", "on_hit"), "--crit-wound is 'always' or 'on_hit' (WH-B4).")
    _need(solid_on in ("base", "total"), "--solid-on is 'base' or 'total' (WH-B5).")
    _need(solid_bonus >= 0 and on_hit >= 0, "Bonus damage cannot be negative.")
    _need(target_malus <= 0, "--target-malus is 0 or negative (WH-20).")
    target = None if target_poise is None or target_health is None else (target_poise, target_health)
    odds = attack_odds(attack, defense, melee=not non_melee, aspect_defense=aspect_defense, solid_bonus=solid_bonus,
                       on_hit=on_hit, target=target, crit_wound=crit_wound, solid_on=solid_on,
                       extra_penetration=extra_penetration, target_malus=target_malus)
    probs = {"p_hit": odds.p_hit, "p_solid_hit": odds.p_solid_hit, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble}
    dists: dict[str, Mapping[int, Fraction]] = {"damage": odds.damage}
    if odds.wounds is not None and odds.p_down is not None:
        probs["p_down"] = odds.p_down
        dists["wounds"] = odds.wounds
    against = f"Defense {defense}" + (f" with Malus {target_malus}" if target_malus else "")
    report(f"WitchHammer attack: d20 {attack:+d} against {against}", probs, dists, as_json_out)


@witchhammer_app.command("save")
def witchhammer_save(bonus: Annotated[int, typer.Option("--bonus", help="the matching Defense or skill")],
                     difficulty: Annotated[int, typer.Option("--difficulty", help="1, 5, 10, 15, 20 (WH-27)")],
                     malus: Annotated[int, typer.Option("--malus", help="the Malus, 0 or negative (WH-20)")] = 0,
                     no_crits: Annotated[bool, typer.Option("--no-crits", help="no +-10 on 20/1 (WH-B7)")] = False,
                     as_json_out: JsonOpt = False) -> None:
    """A save or skill check: d20 + bonus + Malus >= difficulty, +-10 on a natural 20/1 (WH-27, WH-28, WH-B7)."""
    from affray.rulesets.witchhammer.odds import save_odds

    _need(malus <= 0, "--malus is 0 or negative (WH-20).")
    odds = save_odds(bonus, difficulty, malus, not no_crits)
    report(f"WitchHammer save: d20 {bonus + malus:+d} against {difficulty}",
           {"p_success": odds.p_success, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble}, {}, as_json_out)


@warp_app.command("attack")
def warp_attack(
        attack: Annotated[int, typer.Option("--attack", help="the attack trait's dice (2 without one, WR-03)")],
        defense: Annotated[int, typer.Option("--defense", help="the defense roll's dice")],
        attack_bonus: Annotated[int, typer.Option("--attack-bonus", help="bonus dice on the attack")] = 0,
        attack_penalty: Annotated[int, typer.Option("--attack-penalty", help="penalty dice on the attack")] = 0,
        defense_bonus: Annotated[int, typer.Option("--defense-bonus", help="bonus dice on the defense")] = 0,
        defense_penalty: Annotated[int, typer.Option("--defense-penalty", help="penalty dice on the defense")] = 0,
        factor: Annotated[int, typer.Option("--factor", help="the weapon's damage factor (WR-12)")] = 1,
        armour_dice: Annotated[int, typer.Option("--armour-dice", help="regular armour dice (WR-19)")] = 0,
        armour_points: Annotated[int, typer.Option("--armour-points", help="flat armour points (WR-19)")] = 0,
        bullet_dice: Annotated[int, typer.Option("--bullet-dice", help="bullet-proof armour dice (WR-22)")] = 0,
        gunfire: Annotated[bool, typer.Option("--gunfire", help="a firearm: regular armour halves (WR-22)")] = False,
        special: Annotated[bool, typer.Option("--special", help="a special-effect attack: half damage "
                                                                "(WR-30)")] = False,
        alternate: Annotated[bool, typer.Option("--alternate-damage", help="WR-33: a d6 per point of "
                                                                           "factor")] = False,
        target_hp: Annotated[int | None, typer.Option("--target-hp", help="the target's current HP")] = None,
        no_cancel: Annotated[bool, typer.Option("--no-cancel", help="bonus and penalty dice do not cancel "
                                                                    "(WR-B2's alternative)")] = False,
        botch: Annotated[bool, typer.Option("--botch", help="OtE 2e Botch (WR-B12)")] = False,
        as_json_out: JsonOpt = False) -> None:
    """One attack: the chance of a hit (attack > defense) and the damage after armour (WR-08..WR-11, WR-19)."""
    from affray.rulesets.warp.odds import MAX_THROWN, Armour, attack_odds

    counts = (attack, defense, attack_bonus, attack_penalty, defense_bonus, defense_penalty, armour_dice,
              armour_points, bullet_dice)
    _need(min(counts) >= 0, "Dice counts and armour points cannot be negative.")
    _need(attack >= 1, f"--attack is the attack trait's dice, at least 1 (2 without a trait, WR-03; got {attack}).")
    _need(defense >= 1, f"--defense is the defense roll's dice, at least 1 (2 without a trait, WR-03; the GM's "
                        f"distance dice start at 1, WR-15; got {defense}).")
    _need(factor >= 0, "--factor cannot be negative (WR-12).")
    for label, n in (("attack", attack + attack_bonus + attack_penalty),
                     ("defense", defense + defense_bonus + defense_penalty)):
        _need(n <= MAX_THROWN, f"The {label} throws {n} dice; at most {MAX_THROWN} can be enumerated exactly.")
    _need(armour_dice <= MAX_THROWN and bullet_dice <= MAX_THROWN and (not alternate or factor <= MAX_THROWN),
          f"At most {MAX_THROWN} armour or damage dice can be enumerated exactly.")
    _need(target_hp is None or target_hp >= 1, "--target-hp must be at least 1 (the target is still fighting).")
    odds = attack_odds(attack, defense, attack_bonus=attack_bonus, attack_penalty=attack_penalty,
                       defense_bonus=defense_bonus, defense_penalty=defense_penalty, factor=factor,
                       armour=Armour(armour_dice, armour_points, bullet_dice), gunfire=gunfire, special=special,
                       alternate=alternate, target_hp=target_hp, cancel=not no_cancel, botch=botch)
    probs = {"p_hit": odds.p_hit} | ({"p_down": odds.p_down} if odds.p_down is not None else {})
    report(f"WaRP attack: {attack} dice against {defense} dice, factor x{factor}", probs, {"damage": odds.damage},
           as_json_out)


@spellchrome_app.command("attack")
def spellchrome_attack(
        bonus: Annotated[int, typer.Option("--bonus", help="the attack bonus (BAB + ability + weapon, SC-B1)")],
        defense: Annotated[int, typer.Option("--defense", help="the target's Defense (SC-B1)")],
        damage: Annotated[str, typer.Option("--damage", help="the damage dice, e.g. 1d8+2")],
        dr: Annotated[int, typer.Option("--dr", help="the target's armour damage reduction (SC-B6)")] = 0,
        crit_multiplier: Annotated[int, typer.Option("--crit-multiplier", help="on a natural 20 (SC-B1: 1)")] = 1,
        hp: Annotated[int | None, typer.Option("--hp", help="the target's HP: adds hp_loss and p_down")] = None,
        ex_hp: Annotated[int, typer.Option("--ex-hp", help="the target's EX-HP, absorbed first (SC-07)")] = 0,
        as_json_out: JsonOpt = False) -> None:
    """One attack: the chance of a hit and its damage after damage reduction (SC-B1, SC-B6, SC-07)."""
    from affray.core.notation import NotationError
    from affray.rulesets.spellchrome.odds import attack_odds

    _need(dr >= 0 and ex_hp >= 0, "--dr and --ex-hp cannot be negative.")
    _need(crit_multiplier >= 1, "--crit-multiplier is at least 1.")
    _need(hp is None or hp >= 1, "--hp must be at least 1 (the target is still fighting).")
    try:
        odds = attack_odds(bonus, defense, damage, damage_reduction=dr, multiplier=crit_multiplier,
                           target=None if hp is None else (hp, ex_hp))
    except NotationError as exc:
        raise CliError(str(exc)) from None
    except ValueError as exc:
        raise CliError(f"--damage: {exc}") from None
    probs = {"p_hit": odds.p_hit, "p_crit": odds.p_crit, "p_fumble": odds.p_fumble}
    dists: dict[str, Mapping[int, Fraction]] = {"damage": odds.damage}
    if odds.hp_loss is not None and odds.p_down is not None:
        probs["p_down"] = odds.p_down
        dists["hp_loss"] = odds.hp_loss
    report(f"Spellchrome attack: d20 {bonus:+d} against Defense {defense}, {damage}", probs, dists, as_json_out)


@spellchrome_app.command("save")
def spellchrome_save(bonus: Annotated[int, typer.Option("--bonus", help="base save + ability modifier (SC-12)")],
                     dc: Annotated[int, typer.Option("--dc", help="the difficulty class")],
                     as_json_out: JsonOpt = False) -> None:
    """A saving throw: d20 + bonus >= DC; a natural 1 fails and a natural 20 succeeds (SC-12, SC-13)."""
    from affray.rulesets.spellchrome.odds import save_odds

    report(f"Spellchrome save: d20 {bonus:+d} against DC {dc}", {"p_success": save_odds(bonus, dc).p_success}, {},
           as_json_out)


@spellchrome_app.command("dying")
def spellchrome_dying(hp: Annotated[int, typer.Option("--hp", help="the HP it dropped to (−1..−29, SC-04)")],
                      fort: Annotated[int, typer.Option("--fort", help="base Fortitude + Con modifier (SC-12)")],
                      check_first: Annotated[bool, typer.Option(
                          "--check-first", help="its first DC 22 save comes before the first loss (a character "
                                                "dying since before its turn; option first_stabilise_check: "
                                                "next_turn)")] = False,
                      as_json_out: JsonOpt = False) -> None:
    """A dying character left alone: the chance it bleeds out or stabilises, in how many rounds, having lost
    how many HP (SC-04..SC-06, SC-B3..SC-B5): 1d4 at the end of every round, the DC 22 Fortitude save at the
    start of its turns from the next round, dead at −30."""
    from affray.rulesets.spellchrome.odds import dying_odds

    _need(-30 < hp < 0, "--hp is the HP of a dying character: −1 to −29 (SC-04).")
    odds = dying_odds(hp, fort, check_in_first_round=check_first)
    report(f"Spellchrome: dying at {hp} HP, Fortitude {fort:+d} against DC 22", {
        "p_dead": odds.p_dead, "p_stable": odds.p_stable}, {"rounds": odds.rounds, "hp_loss": odds.hp_loss},
        as_json_out)


@odds_app.command("duel")
def duel(scenario: Annotated[Path, typer.Argument(help="a one-against-one scenario")],
         exact: Annotated[bool, typer.Option("--exact", help="exact fractions (slower)")] = False,
         as_json_out: JsonOpt = False) -> None:
    """Exact chances of each side winning a one-on-one scenario, and how many rounds it lasts."""
    from affray.api import load_scenario
    from affray.odds.duels import solve_scenario
    from affray.odds.markov import NotSolvable
    from affray.odds.progress import reporting

    loaded = load_scenario(scenario)
    if exact:
        sys.set_int_max_str_digits(0)  # exact answers of long duels run to thousands of digits
    shown = Progress()
    try:
        with reporting(shown):
            odds = solve_scenario(loaded.ruleset.name, loaded.setup, loaded.options, exact)
    except NotSolvable as exc:
        raise CliError(f"cannot solve {scenario} exactly: {exc}") from None
    finally:
        shown.close()
    show = (lambda p: {"exact": f"{p.numerator}/{p.denominator}", "value": float(p)}) if exact else (
        lambda p: {"value": float(p)})
    if as_json_out:
        data = {"outcomes": {k: show(v) for k, v in odds.outcomes.items()},
                "expected_rounds": show(odds.expected_rounds),
                "rounds": [{"outcome": k, **show(p)} for k, p in odds.rounds if p],
                "tail": float(odds.tail), "states": odds.states, "exact": exact,
                "model": _assumes(loaded.ruleset.name)}
        print(json.dumps(data))
        return
    table = Table(title=f"{escape(loaded.model.name or scenario)}: exact duel", title_justify="left")
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    if exact:
        table.add_column("exact", justify="right")
    long: dict[str, Fraction] = {}
    for k, v in odds.outcomes.items():
        table.add_row(escape(k), f"{float(v):.6%}", *([_fraction(k, v, long)] if exact else []))
    console.print(table)
    rounds_exact = f" = {_fraction('expected rounds', odds.expected_rounds, long)}" if exact else ""
    console.print(f"expected rounds: {float(odds.expected_rounds):.4f}{rounds_exact}   states: {odds.states}")
    for k, v in long.items():  # printed whole: --exact asked for the fractions, however long
        digits = len(str(v.denominator))
        console.print(f"{k} (exact, {digits:,}-digit denominator):\n{v.numerator}/{v.denominator}", soft_wrap=True)
    console.print(f"model: {_assumes(loaded.ruleset.name)}")
    console.print(bars("rounds", {k: Fraction(p).limit_denominator(10**12) for k, p in odds.rounds[:30]}))


def _fraction(name: str, value: Fraction, long: dict[str, Fraction]) -> str:
    """A fraction for a table cell, or a note that it is printed whole below the table (kept in ``long``)."""
    text = f"{value.numerator}/{value.denominator}"
    if len(text) <= 40:
        return text
    long[name] = value
    return "below"


class Progress:
    """Shows a long solve's progress on stderr (docs/odds.md): nothing for the first second, then the stage and
    count at most twice a second, on one line on a terminal and a line every 5 s otherwise."""

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.start = self.clock()
        self.last = self.start
        self.tty = sys.stderr.isatty()
        self.drawn = False

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        now = self.clock()
        if now - self.start < 1 or now - self.last < (0.5 if self.tty else 5):
            return
        self.last = now
        of = f" of {total:,}" if total else ""
        line = f"{stage}: {done:,}{of} ({now - self.start:.0f} s)"
        sys.stderr.write(f"\r{line:<60}" if self.tty else line + "\n")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn and self.tty:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _assumes(ruleset: str) -> str:
    """What the ruleset's duel model assumes, in one sentence ('' when it has none)."""
    from affray.odds.duels import duel_model
    from affray.odds.markov import NotSolvable

    try:
        return duel_model(ruleset).assumes
    except NotSolvable:
        return ""

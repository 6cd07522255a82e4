"""``affray fight``: run a scenario, narrated, with policies and optionally a person at the keyboard.

Nothing is lost: a ``--play`` fight that stops before its end (``quit``, the end of input, Ctrl-C, or a decision
only another person can make) is saved with its seed, owner-only (the GM's file), and ``--resume SAVE`` continues
it with the same dice. The ``--log`` of an unfinished fight is the playing seat's redacted log; a finished fight
reveals its seed, printed at the end, so anyone can verify it (README, "Fair dice").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from affray.ai.base import Policy
from affray.ai.runner import play, policies_for
from affray.cli.render import CliError, console, escape, narrate
from affray.cli.terminal import Terminal
from affray.core.engine import GM, SPECTATOR, Action
from affray.core.events import to_jsonable
from affray.core.files import check_output_path
from affray.core.json import JsonObject
from affray.core.log import LogFormatError, export_log, import_log, read_log, verify, write_log
from affray.core.match import Match
from affray.core.seatlog import redact_event

DEFAULT_SAVE = Path("affray-save.json")


@dataclass(frozen=True, slots=True)
class FightRequest:
    """The ``fight`` command's arguments."""

    scenario: Path | None
    seed: int | None
    as_json: bool
    log: Path | None
    play: str | None
    policies: list[str]
    save: Path | None = None
    resume: Path | None = None


def parse_overrides(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, name = pair.partition("=")
        if not sep or not key.strip() or not name.strip():
            raise CliError(f"--policy expects SIDE=NAME (or COMBATANT=NAME), got '{pair}'")
        out[key.strip()] = name.strip()
    return out


class Absent:
    """Nobody at the keyboard for a person's seat: the fight stops there and is saved, naming who must act."""

    def __init__(self) -> None:
        self.waiting: str | None = None
        self.stopped: str | None = None

    def __call__(self, match: Match, actor: str) -> Action | None:
        self.waiting = actor
        return None


def _start(request: FightRequest) -> tuple[Match, str]:
    """The match to play and its title: a new one from the scenario, or the saved one replayed."""
    if (request.scenario is None) == (request.resume is None):
        raise CliError("fight needs a scenario file, or --resume SAVE (not both)")
    if request.resume is not None:
        if request.seed is not None:
            raise CliError("--seed cannot change a resumed fight: its dice come from the save")
        data = read_log(request.resume)
        try:
            report = verify(data)
            if not report.ok:
                raise CliError(f"{request.resume}: the save fails verification ({report.problems[0]})", code=1)
            return import_log(data), f"{request.resume} (resumed)"
        except LogFormatError as exc:
            raise CliError(f"{request.resume}: {exc}") from None
    from affray.api import load_scenario

    scenario = load_scenario(request.scenario)  # type: ignore[arg-type]  # checked just above
    return scenario.start(request.seed), scenario.model.name or str(request.scenario)


def _policies(match: Match, request: FightRequest) -> dict[str, Policy]:
    overrides = parse_overrides(request.policies)
    seat = request.play
    if seat is not None:
        if seat not in match.seat_names():
            raise CliError(f"--play: no seat '{seat}' in this fight; seats: {', '.join(match.seat_names())}")
        _check_gm_plays(match, seat)
        overrides.update({actor: "human" for actor, s in match.seats.items() if s == seat})
    try:
        chosen = policies_for(match, overrides)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None
    for actor in match.controllers:
        if actor not in chosen and actor != GM and match.seats.get(actor) != seat:
            s = match.seats.get(actor, actor)
            raise CliError(
                f"{actor} is played by a person (controller: human) but nobody plays seat '{s}': "
                f"give --play {s}, or --policy {actor}=heuristic"
            )
    # the log records who really played each seat (a --policy seat says so)
    match.controllers.update({a: (chosen[a].name if a in chosen else "human") for a in match.controllers})
    return chosen


def _check_gm_plays(match: Match, seat: str) -> None:
    """``--play gm`` on a fight where the GM seat plays nothing would run the whole fight without a prompt: refuse
    it, naming the seats that can be played."""
    if seat != GM or match.ruleset.gm_acts(match.state) or any(s == GM for a, s in match.seats.items() if a != GM):
        return
    playable = [s for s in match.seat_names() if s not in (GM, SPECTATOR)]
    raise CliError(
        f"--play gm: the GM plays nothing in this fight (no combatant sits at the 'gm' seat and the rules "
        f"give the GM no calls of its own here); seats you can play: {', '.join(playable)}"
    )


def _check_paths(request: FightRequest) -> Path | None:
    if request.log is not None:
        check_output_path(request.log, (".json",), "--log")
    save = request.save or request.resume or (DEFAULT_SAVE if request.play is not None else None)
    if save is not None:
        check_output_path(save, (".json",), "--save")
    return save


def run_fight(request: FightRequest) -> JsonObject:
    """Play the fight; see the module docstring. Returns the JSON summary (with ``stopped``)."""
    save = _check_paths(request)
    match, title = _start(request)
    chosen = _policies(match, request)
    human: Terminal | Absent = Terminal(match, request.play) if request.play is not None else Absent()
    if not request.as_json:
        console.print(f"[bold]{escape(title)}[/] — {escape(match.ruleset.title)}")
        console.print(f"seed commitment: {match.commitment}")
    try:
        play(match, chosen, human=human)
        stopped = human.stopped or (f"waiting for {human.waiting}" if human.waiting else None)
    except KeyboardInterrupt:
        stopped = "interrupted"
    if not request.as_json:
        if isinstance(human, Terminal):
            human.catch_up()
        else:
            narrate(match.events(), match)
    seat = request.play or SPECTATOR
    return _finish(match, request, stopped, save or DEFAULT_SAVE, seat)


def _finish(match: Match, request: FightRequest, stopped: str | None, save: Path, seat: str) -> JsonObject:
    over = match.outcome() is not None
    if not over and stopped is None:
        stopped = "stopped before the end"
    saved = None
    if not over:
        check_output_path(save, (".json",), "--save")
        write_log(match, save, save=True)
        saved = str(save)
    if request.log is not None:
        write_log(match, request.log, seat=None if over else seat)
    out = summary(match, seat if not over else None)
    out.update(stopped=stopped, save=saved)
    if not request.as_json:
        _report(match, request, stopped, saved)
    if stopped == "interrupted":
        raise KeyboardInterrupt  # the top level says so and exits 130, after the save
    if stopped is not None and stopped.startswith("waiting"):
        raise CliError(
            f"the fight needs {stopped.removeprefix('waiting for ')}'s decision, and nobody plays that "
            f"seat here; it is saved in {saved}: affray fight --resume {saved} --play "
            f"{match.seats.get(stopped.removeprefix('waiting for '), GM)}",
            code=1,
        )
    return out


def _report(match: Match, request: FightRequest, stopped: str | None, saved: str | None) -> None:
    if match.outcome() is not None and match.seed is not None:
        console.print(
            f"seed: {match.seed.hex()} (revealed now the fight is over: affray verify re-derives every roll from it)"
        )
    if saved is not None:
        console.print(
            f"[yellow]{escape(stopped or 'stopped')}:[/] the match is saved in {escape(saved)} "
            f"(owner-only: it holds the secret seed and every face-down card); continue with "
            f"affray fight --resume {escape(saved)}" + (f" --play {escape(request.play)}" if request.play else "")
        )
    if request.log is not None:
        which = "" if match.outcome() is not None else f" (what seat '{request.play or SPECTATOR}' may see)"
        console.print(f"log written to {escape(request.log)}{which}")


def summary(match: Match, seat: str | None = None) -> JsonObject:
    """The fight as JSON; ``seat``: only what that seat may see (events redacted, no seed before the end)."""
    data = export_log(match, seat=seat)
    outcome = match.outcome()
    viewer = match.viewer(seat) if seat is not None else None
    events = [to_jsonable(e) if viewer is None else redact_event(e, viewer) for e in match.events()]
    return {
        "ruleset": match.ruleset.name,
        "outcome": outcome.label if outcome else None,
        "reason": outcome.reason if outcome else "stopped before the end",
        "rounds": match.rounds(),
        "commitment": match.commitment,
        "seed": data["seed"],
        "actions": len(match.log),
        "events": events,
    }

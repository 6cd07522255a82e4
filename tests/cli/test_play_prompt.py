"""``affray fight ... --play SEAT``: what the prompt's table shows beside each choice. A grouped row (a long list
shares one row per head) keeps every choice's notes, its odds hint among them (docs/odds.md); a WitchHammer combo
shows the numbers of both its cards (WH-05). Run in this process with a wide console, so no cell wraps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affray.cli import render
from tests.cli.inproc import run_cli

EXAMPLES = Path(__file__).parents[2] / "examples"


def prompt_rows(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The table's rows as printed before the first prompt (quit at once)."""
    monkeypatch.setattr(render.console, "width", 400)
    code, out, err = run_cli([*argv, "--save", str(tmp_path / "save.json")], stdin="q\n")
    assert code == 0, err
    return [re.sub(r"\s+", " ", line) for line in out.splitlines() if line.startswith("│")]


def test_play_spellchrome_attack_rows_show_their_odds_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's step: ``affray fight ford_duel.yaml --seed 1 --play tamsin``. Her turn lists more than 30 choices,
    so the two attacks share a row; that row shows each attack's hint, the target's Defense and the weapon's
    damage (docs/odds.md: ``vs Defense 14 · 1d8 + Str``), which the grouped row used to drop."""
    rows = prompt_rows(
        ["fight", str(EXAMPLES / "spellchrome" / "ford_duel.yaml"), "--seed", "1", "--play", "tamsin"],
        tmp_path,
        monkeypatch,
    )
    attack = next(r for r in rows if "attack Bandit Cutthroat with" in r)
    assert "1: vs Defense 14 · 1d4 + Str (avg 2.5 + Str)" in attack
    assert "2: vs Defense 14 · 1d3 + Str (avg 2.0 + Str)" in attack


def test_play_witchhammer_combo_rows_show_both_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's step: ``affray fight yard_duel.yaml --seed 1 --play bruna``. The combo "HayMaker, then Sword
    Swing" notes the numbers of both cards (WH-05: initiative and defense above, the nodes below), each named;
    it used to show the slot-2 card's only."""
    rows = prompt_rows(
        ["fight", str(EXAMPLES / "witchhammer" / "yard_duel.yaml"), "--seed", "1", "--play", "bruna"],
        tmp_path,
        monkeypatch,
    )
    combo = next(r for r in rows if "HayMaker, then Sword Swing" in r)
    assert "HayMaker: init -3, defense -2; move 1, attack 3" in combo
    assert "Sword Swing: init +2, defense +1; move 1, attack 8" in combo

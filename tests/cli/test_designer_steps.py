"""What a new designer trips on at the command line, each answered with a sentence that says what is wrong and
what to do instead, never a traceback: dice of no dice, a file of the wrong kind where a scenario is expected, a
scenario field with a typo, a misspelt flag, a flag without help, a note about people where no person plays."""

from __future__ import annotations

import pytest

from tests.cli_run import affray


@pytest.mark.parametrize(("notation", "term", "words"), [
    ("0d6", "0d6", "rolls no dice"),
    ("1d6+0d4", "0d4", "rolls no dice"),
    ("2d6-0d3", "0d3", "rolls no dice"),
    ("1d6+0b", "0b", "adds no dice"),
    ("4d6kh0", "4d6kh0", "keeps no dice"),
])
def test_roll_of_zero_dice_is_refused_naming_the_notation(notation: str, term: str, words: str) -> None:
    """The user's step: ``affray roll 0d6`` (or a 0-dice term inside a longer notation). It used to answer
    ``0d6: [] = 0``; a pool of no dice is a typo, so it is refused with a sentence naming the notation and the
    term, exit 2."""
    done = affray("roll", notation, "--seed", "1")
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert f"'{notation}' is not dice notation: '{term}' {words}" in done.stderr

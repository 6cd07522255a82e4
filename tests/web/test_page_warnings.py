"""The page's warning decisions key on the code (SC-28): board.js's ``provokes`` and ``warnsOf``,
run in Node.js on the page's own modules. A listed move whose code is ``provokes`` is marked (the square orange, the
path preview's line a warning) whatever its sentence says; one whose words say "provokes" without the code is not.
The browser test of the same preview on a served Spellchrome table is tests/web/test_browser_spellchrome.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).parents[2] / "src" / "affray" / "web" / "static"
NODE = shutil.which("node")

PROBE = """
import { drawBoard, provokes, warnsOf } from "./board.js";
const move = (x, notes, warnings) => ({ actor: "a", key: `${x}`, spec: { action: { type: "move", to: [x, 0] },
  label: `move to [${x}, 0]`, notes, ...(warnings ? { warnings } : {}) } });
const coded = move(2, ["B gets a free swing as you go", "withdraw instead"], ["provokes"]);
const worded = move(1, ["provokes an attack of opportunity from B"]);
const tumble = move(3, ["tumbles through an opponent", "provokes an attack of opportunity from B"],
  ["check", "provokes"]);
const view = { turn: "a", detail: { map: "...." }, combatants: [{ id: "a", name: "A", side: "x", controlled: true,
  position: { kind: "square", x: 0, y: 0 } }] };
const board = (selected) => drawBoard(view, [worded, coded, tumble], { selected, rel: { a: "own" } });
const square = (svg, x) => svg.match(new RegExp(`<rect class="([^"]*)" x="${x}" y="0"`))[1];
const line = (svg) => svg.match(/<line class="([^"]*)"/)[1];
console.log(JSON.stringify({
  provokes: [provokes(worded), provokes(coded), provokes(tumble)],
  notes: tumble.spec.notes.map((_, i) => warnsOf(tumble, i, "provokes")),
  squares: [square(board(null), 1), square(board(null), 2)],
  lines: [line(board("1,0")), line(board("2,0"))],
}));
"""


@pytest.mark.skipif(NODE is None, reason="needs Node.js (the machine's node) to run the page's modules")
def test_sc28_the_page_marks_a_provoking_move_by_its_code_not_its_words(tmp_path: Path) -> None:
    """SC-28: ``provokes`` is true for the coded moves only; the note marked as the warning is the one at the code's
    place (a tumble's second note); the coded square is orange (``provokes``) and the worded one not; the path
    preview's line to the coded square warns and to the worded one does not."""
    for script in STATIC.glob("*.js"):
        shutil.copy(script, tmp_path / script.name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "probe.js").write_text(PROBE)
    assert NODE is not None
    run = subprocess.run([NODE, "probe.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["provokes"] == [False, True, True]
    assert found["notes"] == [False, True]
    assert found["squares"] == ["sq target", "sq target provokes"]
    assert found["lines"] == ["path", "path provokes"]

"""An optional compiled build of the simulation's hot modules (mypyc), beside the source tree, never instead of it.

``make mypyc`` copies ``src/`` to ``build/mypyc/src`` and compiles there, with mypyc, the modules that the fast path
of WitchHammer and Spellchrome spends its time in (:data:`MODULES`): their rules, policies and the shared grid. The
copy's other modules stay pure Python; the source tree is left alone, so nothing but a ``PYTHONPATH`` that names
the copy ever imports the compiled modules. ``make test-mypyc`` runs the fast path's conformance test and the two
rulesets' tests against the copy, ``make bench-mypyc`` the fast-path bench (against this tree's pure-Python full
engine). Compiled code plays the same fights: the same rules, the same dice in the same order.

Why these modules only: mypyc compiles a class to a native class, which may not declare ``__slots__`` nor derive
from an interpreted class that does; the observation and choices modules do both (``core.policy``'s bases), so they
stay interpreted, like Spellchrome's listing parts (``legal``). WitchHammer's ``state`` stays interpreted too: a
compiled frozen dataclass (its cards) cannot be deep-copied, which a GM's ruling does to the state.

Run: ``.venv/bin/python bench/mypyc_build.py [--out build/mypyc]``. Needs a C compiler and Python's headers.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
_WH = "affray/rulesets/witchhammer/"
_SC = "affray/rulesets/spellchrome/"
#: The compiled modules, relative to ``src/``.
MODULES = (
    *(
        _WH + m + ".py"
        for m in (
            "attack",
            "effects",
            "mechanics",
            "nodes",
            "planning",
            "policies",
            "targeting",
            "vignette",
            "violence",
            "wounds",
        )
    ),
    *(
        _SC + m + ".py"
        for m in (
            "actions",
            "checks",
            "combat",
            "health",
            "mechanics",
            "movement",
            "moves",
            "offers",
            "policies",
            "state",
            "turns",
        )
    ),
    "affray/core/grid/geometry.py",
    "affray/core/grid/paths.py",
)


def build(out: Path) -> Path:
    """Copy ``src`` to ``out/src`` afresh and compile :data:`MODULES` there; returns the copy's ``src``."""
    src = out / "src"
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # mypyc's own build files go to out/build (cwd); the compiled extensions land beside their modules in the copy
    subprocess.run([str(Path(sys.executable).with_name("mypyc")), *MODULES], cwd=src, check=True)
    shutil.rmtree(src / "build", ignore_errors=True)
    return src


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "mypyc", help="where the compiled copy goes")
    args = parser.parse_args()
    src = build(args.out)
    compiled = sorted(str(p.relative_to(src)) for p in src.rglob("*.so"))
    print(f"compiled {len(compiled)} extension(s) into {src}: use PYTHONPATH={src}")


if __name__ == "__main__":
    main()

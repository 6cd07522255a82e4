"""Questions and answers for the interactive character builders (``affray character new``).

A ruleset's builder (:data:`~affray.core.sheetrules.Builder`, named by its plug-in record) asks through a
:class:`Prompts` object, so the rules of building a character live with the ruleset and the terminal (or a test, or
a web form) only supplies ``read`` and ``write``. Every answer is checked as it is given: a refused answer prints the
reason and asks again. Input that ends early raises :class:`InputEnded`. In core because the record's builder takes
it (:mod:`affray.core.sheetrules`); :func:`affray.characters.prompts.finish` checks the finished answers as a sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, cast

from pydantic import BaseModel, TypeAdapter, ValidationError

from affray.core.content import ContentLibrary
from affray.core.rng import VerifiableRNG
from affray.core.sheetrules import FORMAT, SheetModel

Check = Callable[[str], str | None]
DONE = ("done", "")


class InputEnded(Exception):
    """The answers ended (EOF) before the character was finished."""


class Prompts:
    """Ask questions with ``read(prompt) -> answer`` (raising ``EOFError`` at the end of input); tell with
    ``write(text, style)`` and lay out tables with ``table(title, columns, rows)``."""

    def __init__(
        self,
        read: Callable[[str], str],
        write: Callable[[str, str], None],
        table: Callable[[str, tuple[str, ...], Sequence[tuple[str, ...]]], None],
    ) -> None:
        self._read, self._write, self._table = read, write, table

    def say(self, text: str, style: str = "") -> None:
        self._write(text, style)

    def ok(self, text: str) -> None:
        self._write(f"✓ {text}", "green")

    def refuse(self, reason: str) -> None:
        self._write(f"refused: {reason}", "red")

    def show(self, title: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
        self._table(title, columns, rows)

    def ask(self, label: str, default: str | None = None, check: Check | None = None) -> str:
        """Ask until ``check`` accepts the answer (it returns an error sentence, or ``None``)."""
        shown = f" [{default}]" if default else ""
        while True:
            try:
                text = self._read(f"{label}{shown}: ").strip()
            except EOFError:
                raise InputEnded("input ended before the character was finished; nothing was saved.") from None
            if not text and default is not None:
                text = default
            problem = check(text) if check is not None else None
            if problem is None:
                return text
            self.refuse(problem)

    def ask_int(self, label: str, low: int, high: int, default: int | None = None) -> int:
        def check(text: str) -> str | None:
            try:
                value = int(text)
            except ValueError:
                return f"a whole number from {low} to {high}"
            return None if low <= value <= high else f"a whole number from {low} to {high}"

        return int(self.ask(label, None if default is None else str(default), check))

    def ask_yes(self, label: str, default: bool) -> bool:
        answer = self.ask(
            f"{label} (y/n)",
            "y" if default else "n",
            lambda t: None if t.lower() in ("y", "yes", "n", "no") else "y or n",
        )
        return answer.lower() in ("y", "yes")

    def ask_id(self, label: str, known: Mapping[str, object], default: str | None = None, blank: bool = False) -> str:
        """An id from ``known``; ``blank`` lets an empty answer mean none."""

        def check(text: str) -> str | None:
            if (blank and not text) or text in known:
                return None
            return f"one of {', '.join(sorted(known))}" + (" (or blank for none)" if blank else "")

        return self.ask(label, default if default is not None else ("" if blank else None), check)

    def ask_ids(self, label: str, known: Mapping[str, object], default: str = "") -> list[str]:
        """Comma-separated ids from ``known`` (blank for none)."""

        def check(text: str) -> str | None:
            bad = [x for x in split(text) if x not in known]
            return f"unknown: {', '.join(bad)}; known: {', '.join(sorted(known))}" if bad else None

        return split(self.ask(label, default, check))

    def header(self, ruleset: str) -> dict[str, Any]:
        """The name and description every sheet starts with."""
        name = self.ask("Name", check=field_check(SheetModel, "name"))
        return {
            "format": FORMAT,
            "ruleset": ruleset,
            "name": name,
            "description": self.ask("A few words about them", ""),
        }


def field_check(model: type[BaseModel], name: str, blank: bool = False) -> Check:
    """A check for :meth:`Prompts.ask` made of the constraints of ``model``'s field ``name`` (its length, range,
    pattern), so that an answer the prompt accepts is one the sheet accepts and no later step fails on it.
    ``blank``: an empty answer is accepted (it means none)."""
    info = model.model_fields[name]
    adapter: TypeAdapter[object] = TypeAdapter(cast("type[object]", Annotated[info.annotation, info]))  # the field

    def check(text: str) -> str | None:
        if blank and not text:
            return None
        try:
            adapter.validate_python(text)
        except ValidationError as exc:
            message = str(exc.errors()[0]["msg"])
            return message[:1].lower() + message[1:]
        return None

    return check


def split(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


#: A ruleset's interactive builder (its plug-in record's ``builder``): asks through the prompts, reads the content,
#: rolls what the rules roll at creation on the verifiable dice (recorded on the sheet), and returns the finished
#: sheet, checked by its model.
Builder = Callable[[Prompts, ContentLibrary, VerifiableRNG], SheetModel]

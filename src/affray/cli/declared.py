"""Commands built from declared parameters (:class:`~affray.core.actions.Field`): the single checks of
``affray odds RULESET CHECK`` and the sheet operations of ``affray character``, for whichever rulesets are
registered, with no ruleset named here.

Each field becomes a typer parameter: ``attack_mod`` the flag ``--attack-mod`` (a ``positional`` one an argument),
its kind the Python type (integer, number, boolean flag, string, choice, or a repeatable string for ``list``), not
``required`` with its ``default`` (``None``: optional), its description the help, its bounds a click range. The
command is a function with a synthesized ``__signature__`` of ``Annotated[..., typer.Option(...)]`` parameters,
so its ``--help`` and its errors are typer's own, like every hand-written command's.

Help texts name no ruleset: they say :data:`RULESETS`, which the root group (:class:`NamesRulesets`) replaces by the
registered rulesets' names each time the command line is built.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Sequence
from types import GenericAlias, UnionType
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer._click.exceptions import NoSuchOption
from typer.core import TyperGroup, TyperOption

from affray.core.actions import Field
from affray.core.checks import flag
from affray.core.plugin import plugin_names

if TYPE_CHECKING:  # typer carries its own click; its types are only named here
    from typer._click.core import Command, Context

_TYPES: dict[str, type | GenericAlias] = {
    "integer": int,
    "number": float,
    "boolean": bool,
    "string": str,
    "list": list[str],
}


def python_type(f: Field) -> type | GenericAlias | UnionType:
    """The parameter's type: its kind's, optional (``| None``) when it has no default and is not required."""
    if f.kind == "choice":
        base: type | GenericAlias = int if f.choices and all(isinstance(c, int) for c in f.choices) else str
    else:
        base = _TYPES[f.kind]
    return base | None if not f.required and f.default is None and base is not bool else base


def parameter(f: Field) -> inspect.Parameter:
    """One typer parameter for a field (see the module docstring)."""
    low, high = (None if v is None else int(v) if f.kind == "integer" else v for v in (f.minimum, f.maximum))
    info = (
        typer.Argument(help=f.description or None, min=low, max=high)
        if f.positional
        else typer.Option(flag(f), help=f.description or None, min=low, max=high)
    )
    default = inspect.Parameter.empty if f.required else f.default
    if f.kind == "boolean" and default is None:
        default = False
    return inspect.Parameter(
        f.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[python_type(f), info]
    )


def option(
    name: str, kind: object, flag_name: str, help: str, default: object = None, **more: Any
) -> inspect.Parameter:
    """A hand-declared parameter to add beside the fields (``--json``, ``--out``...): ``name`` is its keyword."""
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[kind, typer.Option(flag_name, help=help, **more)],
    )


def command(
    name: str,
    doc: str,
    leading: Sequence[inspect.Parameter],
    fields: Sequence[Field],
    trailing: Sequence[inspect.Parameter],
    body: Callable[[dict[str, object]], None],
) -> Callable[..., None]:
    """A typer command function: ``leading`` parameters (a sheet argument...), then one per field, then
    ``trailing`` ones (``--json``...); it calls ``body`` with every value by keyword."""
    names = [p.name for p in (*leading, *trailing)]
    clash = [f.name for f in fields if f.name in names]
    if clash:
        raise ValueError(f"'{name}' declares {clash}, which the command line uses itself")

    def run(**values: object) -> None:
        body(values)

    run.__signature__ = inspect.Signature([*leading, *(parameter(f) for f in fields), *trailing])  # type: ignore[attr-defined]
    run.__doc__ = doc
    run.__name__ = run.__qualname__ = name.replace("-", "_")
    return run


T = TypeVar("T")


def take(values: dict[str, object], name: str, kind: type[T]) -> T:
    """Remove and return the value typer parsed for the parameter ``name``, of the ``kind`` it declares."""
    value = take_optional(values, name, kind)
    if value is None:
        raise TypeError(f"the parameter {name} has no value")
    return value


def take_optional(values: dict[str, object], name: str, kind: type[T]) -> T | None:
    """:func:`take` for a parameter that may be left out (``None``)."""
    value = values.pop(name, None)
    if value is not None and not isinstance(value, kind):
        raise TypeError(f"the parameter {name} is {value!r}, not a {kind.__name__}")
    return value


#: In a help text: replaced by the registered rulesets' names (comma-separated) when the command line is built.
RULESETS = "{rulesets}"


def fill_rulesets(cmd: Command, names: str) -> None:
    """Put ``names`` for :data:`RULESETS` in the help of ``cmd``, its parameters and its subcommands."""
    if cmd.help and RULESETS in cmd.help:
        cmd.help = cmd.help.replace(RULESETS, names)
    for param in cmd.params:
        text = getattr(param, "help", None)
        if isinstance(text, str) and RULESETS in text:
            param.help = text.replace(RULESETS, names)  # type: ignore[attr-defined]
    for sub in getattr(cmd, "commands", {}).values():
        fill_rulesets(sub, names)


def suggest_flags(exc: NoSuchOption) -> None:
    """Put the flags nearest to the unknown one in ``exc``'s "Possible options", short ones included.

    Click compares the typed flag with the long flags only, dashes and all, so ``--n`` was answered with
    ``--chunk, --json`` (the shared ``--`` is most of the likeness) and never with ``-n``. Here the names are
    compared without their dashes, over every flag of the command (``-n`` and ``--fights``, ``-h``)."""
    ctx = exc.ctx
    if ctx is None:
        return
    flags: dict[str, str] = {}
    for param in ctx.command.get_params(ctx):
        if isinstance(param, TyperOption):
            for flag_name in (*param.opts, *param.secondary_opts):
                flags.setdefault(flag_name.lstrip("-"), flag_name)
    near = difflib.get_close_matches(exc.option_name.lstrip("-"), list(flags), n=3, cutoff=0.6)
    exc.possibilities = [flags[name] for name in near]


class NamesRulesets(TyperGroup):
    """The root group: once built (every run), its help texts name the rulesets registered then. A misspelt flag,
    of the root or of any command below it, is answered with the nearest flags (:func:`suggest_flags`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fill_rulesets(self, ", ".join(plugin_names()))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as exc:
            suggest_flags(exc)
            raise

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except NoSuchOption as exc:  # a command's flags are parsed inside the root's invoke
            suggest_flags(exc)
            raise

"""The Typer application object that every command module registers on.

Typer's defaults speak Python to the user: help shows ``{paths}...``,
``<list[str]>``, ``<int range>`` and ``[x>=1]``, and a bad value reads
"Value error, 'xml' is not one of 'text', ...". The classes here keep the
help in plain metavars (``PATH...``, ``N``, ``FORMAT``) and every usage
error on one line, ``muggins check: --format: 'xml' is not one of text,
json, ...``, exit status 2, for every command, including the ones added
later: :class:`MugginsTyper` gives each new command the plain class.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any, get_args, get_origin

import typer
from typer import BadParameter

# Typer's private modules, for what its public API does not offer: its own
# Click's classes for the types of the overrides below and the errors it
# does not re-export, and its coercion, so that a command's values are
# coerced without pydantic (see _PlainCoercion). pyproject.toml pins typer
# below the next minor release for them; tests/test_startup.py holds the
# plain coercion to Typer's own.
from typer._click import Command, Context
from typer._click.exceptions import (
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    UsageError,
)
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer._param_types import coerce_cli_choice
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.main import get_command_from_info
from typer.models import CommandFunctionType

import muggins_cli
from muggins_cli.cli.output import OutputError, guarded, say_unwritable
from muggins_cli.cli.terminal import reset as reset_terminal
from muggins_cli.errors import MugginsError
from muggins_cli.notation.quoting import shorten
from muggins_cli.process import stopped_by
from muggins_cli.report.escape import for_terminal

NAME = "muggins"

#: Every command and the module of this package that defines it, in the
#: order of ``muggins --help``. A command's module is imported only when the
#: command line names it (``muggins check`` reads neither the solver nor
#: Jinja2); ``muggins --help`` and a name that is no command import them all.
COMMANDS: dict[str, str] = {
    "analyze": "analyze_cmd",
    "selfplay": "selfplay_cmd",
    "arena": "arena_cmd",
    "check": "check_cmd",
    "explain": "explain_cmd",
    "fmt": "fmt",
    "replay": "replay_cmd",
    "rules": "rules_cmd",
    "solve": "solve_cmd",
    "stats": "stats_cmd",
    "study": "study_cmd",
}


#: The line ``muggins --help`` gives each command, set as its ``short_help``
#: (:class:`MugginsTyper`): the list of commands is then written without
#: importing any of them.
SUMMARIES: dict[str, str] = {
    "analyze": "Check records and weigh every turn against its alternatives.",
    "selfplay": "Play complete matches between strategies, written as MGN.",
    "arena": "Play strategies against each other on the same deals.",
    "check": "Replay records through the rules engine; report every problem.",
    "explain": "Explain a diagnostic code, with a record that produces it.",
    "fmt": "Print records in canonical MGN, or check or rewrite them.",
    "replay": "Replay a recorded match turn by turn on the terminal.",
    "rules": "List the rules presets, or print one in full.",
    "solve": "Value every legal play of a position with the solver.",
    "stats": "Summarise a corpus: matches, rounds, turns, players, codes.",
    "study": "Write one match as a page to study in a browser.",
}


def load_commands(names: Sequence[str] = tuple(COMMANDS)) -> None:
    """Import the modules of the commands ``names``, which register them on
    :data:`app` (in the order of :data:`COMMANDS` when all are loaded)."""
    for name in names:
        importlib.import_module(f"{__package__}.{COMMANDS[name]}")


_UNSURE = object()
_WHOLE_NUMBER = re.compile(r"0|-?[1-9][0-9]{0,17}")


def _plain_value(desc: TypeDescriptor, value: Any, ctx: Context) -> Any:
    """What Typer's coercion gives for ``value``, for the values a command
    line nearly always holds (a string, strings, a choice, a whole number in
    range), or ``_UNSURE``."""
    info = desc.parameter_info
    if desc.file_annotation is not None or info.parser is not None:
        return _UNSURE
    annotation: Any = desc.annotation
    if get_origin(annotation) is list:
        if (get_args(annotation) == (str,) and isinstance(value, (list, tuple))
                and all(type(v) is str for v in value)):
            return list(value)
        return _UNSURE
    if annotation is str:
        return value if type(value) is str else _UNSURE
    if annotation is bool:  # a flag: click gives True or False
        return value if type(value) is bool else _UNSURE
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        try:
            # What Typer's adapter for a choice calls, and returns as it is.
            return coerce_cli_choice(value, choices=list(annotation),
                                     case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return _UNSURE
    if annotation is int and not info.clamp:
        if type(value) is str and _WHOLE_NUMBER.fullmatch(value):
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            return _UNSURE
        if (info.min is None or number >= info.min) and (info.max is None or number <= info.max):
            return number
    return _UNSURE


@dataclass(frozen=True)
class _PlainCoercion(RuntimeParam):
    """Typer's coercion of a parameter's value without pydantic, which
    Typer's own builds an adapter with for every parameter and which takes
    longer to import than ``muggins check FILE`` takes to run. The values
    :func:`_plain_value` is unsure of (anything wrong, above all) go to
    Typer's coercion, so results and error messages are Typer's own."""

    descriptor: TypeDescriptor
    _typers: list[RuntimeParam] = field(default_factory=list)  # built when first needed

    def _coerce_value(self, value: Any, param: Any, ctx: Context) -> Any:
        found = _plain_value(self.descriptor, value, ctx)
        if found is not _UNSURE:
            return found
        if not self._typers:
            self._typers.append(build_runtime_param(self.descriptor))
        return self._typers[0]._coerce_value(value, param=param, ctx=ctx)


def _coercion(param: TyperArgument | TyperOption) -> RuntimeParam:
    found: RuntimeParam | None = param.__dict__.get("_plain_coercion")
    if found is None:
        desc = param.type_descriptor
        found = _PlainCoercion(parameter_info=desc.parameter_info, annotation=desc.annotation,
                               descriptor=desc)
        param.__dict__["_plain_coercion"] = found
    return found


class _PlainArgument(TyperArgument):
    """An argument shown as ``PATH...`` in the usage line and in the help,
    without its Python type."""

    def get_runtime_param(self) -> RuntimeParam:
        return _coercion(self)

    def _label(self) -> str:
        return self.metavar or (self.name or "ARG").upper()

    def _usage_display_name(self) -> str:
        name = self._label()
        if not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def _rich_display_name(self) -> str:
        return self._label() + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _get_number_range_help_str(self) -> str | None:
        return None


#: The spellings of an older release that still work, hidden from --help:
#: (command, old spelling) -> the spelling now. An old name of a value is a
#: second name of the option that took its place (Click reads either); an
#: old flag (``--perfect``) is a hidden option of its own, which the
#: command reads as the new spelling.
OLD_SPELLINGS: dict[tuple[str, str], tuple[str, ...]] = {
    ("analyze", "--perfect"): ("--mode", "perfect"),
    ("study", "--perfect"): ("--mode", "perfect"),
    ("analyze", "--samples"): ("--max-samples",),
    ("study", "--samples"): ("--max-samples",),
    ("analyze", "--nodes"): ("--deal-nodes",),
    ("study", "--nodes"): ("--deal-nodes",),
    ("selfplay", "--nodes"): ("--move-nodes",),
    ("arena", "--nodes"): ("--move-nodes",),
    ("arena", "--matches"): ("--sequences",),
    ("arena", "-k"): ("--sequences",),
}
#: The old names of each option that took them, by the option's first name.
_OLD_NAMES: dict[str, frozenset[str]] = {}
for _where, _now in OLD_SPELLINGS.items():
    _OLD_NAMES[_now[0]] = _OLD_NAMES.get(_now[0], frozenset()) | {_where[1]}


class _PlainOption(TyperOption):
    """An option shown with its metavar (``N``, ``FORMAT``; the upper-case
    name when none is given), never a Python type or a ``[x>=1]`` range: the
    help text says the range in words; and without its old spellings
    (:data:`OLD_SPELLINGS`), which it still reads."""

    def get_runtime_param(self) -> RuntimeParam:
        return _coercion(self)

    def get_help_record(self, ctx: Context) -> tuple[str, str] | None:
        old = _OLD_NAMES.get(self.opts[0], frozenset())
        if not old.intersection(self.opts):
            return super().get_help_record(ctx)
        kept = self.opts
        self.opts = [o for o in kept if o not in old]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = kept

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        return self.metavar or (self.name or "VALUE").upper()

    def _get_number_range_help_str(self) -> str | None:
        return None


def _make_plain(params: Sequence[object]) -> None:
    for param in params:
        # Same state, other display and coercion methods: Typer builds the
        # parameters itself and offers no hook to choose their classes.
        if type(param) is TyperArgument:
            param.__class__ = _PlainArgument
        elif type(param) is TyperOption:
            param.__class__ = _PlainOption


class MugginsCommand(TyperCommand):
    """Every ``muggins`` command: its parameters shown plainly, and any
    :class:`MugginsError` it does not handle itself said on one line with
    exit status 2 (bad input, a bad rules file, a cluster that cannot be
    reached), never a traceback; Ctrl-C it does not handle itself is
    ``interrupted`` and exit status 130 (SIGTERM and SIGHUP the same way:
    :func:`interrupted`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _make_plain(self.params)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except MugginsError as e:
            sys.stderr.write(for_terminal(f"{ctx.command_path}: {e}") + "\n")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            # A command that stops on Ctrl-C with something to say says it
            # itself; the others are stopped the same way, with one line.
            raise typer.Exit(interrupted(f"{NAME} {ctx.info_name}")) from None

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)  # made on first use
        _make_plain([option])
        return option


class MugginsGroup(TyperGroup):
    """The ``muggins`` group: usage errors as one plain line on stderr, and
    each command made (its module imported) only when it is asked for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _make_plain(self.params)  # --version, coerced without pydantic

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        option = super().get_help_option(ctx)
        _make_plain([option])
        return option

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        # Typer adds --install-completion and --show-completion after the
        # group is made: coerced without pydantic too.
        _make_plain(self.params)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: Context) -> list[str]:
        return list(dict.fromkeys([*COMMANDS, *self.commands]))

    def format_commands(self, ctx: Context, formatter: Any) -> None:
        # Typer's makes every command to ask for its short help, which
        # imports every command's module (the solver, Jinja2, ...): here a
        # command not made yet is listed with its line of SUMMARIES, which
        # is also its short_help once made.
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name)
            if command is None and name in SUMMARIES:
                rows.append((name, SUMMARIES[name]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            if not any(c.name == cmd_name for c in app.registered_commands):
                try:
                    load_commands([cmd_name])
                except MugginsError as e:  # what its module needs is not installed
                    sys.stderr.write(for_terminal(f"{NAME} {cmd_name}: {e}") + "\n")
                    raise typer.Exit(2) from None
            for info in app.registered_commands:
                if info.name == cmd_name:
                    self.commands[cmd_name] = get_command_from_info(
                        info, pretty_exceptions_short=app.pretty_exceptions_short,
                        rich_markup_mode=app.rich_markup_mode)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Context, args: list[str]
                        ) -> tuple[str | None, Command | None, list[str]]:
        if args and args[0] not in COMMANDS:
            # Not a command: all of them, for the "did you mean" of the error.
            for name in self.list_commands(ctx):
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Context) -> Any:
        reset_terminal()  # --color holds for one command, whatever ran before
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Ctrl-C while a command is still being loaded (its modules
            # imported): Typer would end with 130 and not a word.
            raise typer.Exit(interrupted(command_path(None))) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        with guarded():
            try:
                sys.exit(self._run(args, prog_name, complete_var, windows_expand_args,
                                   **extra))
            except OutputError as e:
                sys.exit(say_unwritable(command_path(args), e))

    def _run(self, args: Sequence[str] | None, prog_name: str | None,
             complete_var: str | None, windows_expand_args: bool, **extra: Any) -> int:
        """The exit status of the command line, its output flushed (so that
        a write that fails at the end fails here, as an OutputError)."""
        try:
            # Not standalone, so that Click's errors come here instead of
            # being printed in Click's three-line form. Commands end with
            # typer.Exit, which comes back as its exit status; a command
            # that returns normally returns None.
            status = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                  **extra)
        except typer.Abort:
            status = interrupted(NAME)
        except NoArgsIsHelpError as e:  # ``muggins`` alone: the help, as Click gives it
            e.show()
            status = e.exit_code
        except ClickException as e:
            sys.stderr.write(for_terminal(usage_error_line(e)) + "\n")
            status = e.exit_code
        sys.stdout.flush()
        sys.stderr.flush()
        return status if isinstance(status, int) else 0


#: What the line says of each signal that stops a command as Ctrl-C does.
_STOPPED: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated",
                            signal.SIGHUP: "hung up"}


def interrupted(command: str, *, quiet: bool = False) -> int:
    """A command stopped by Ctrl-C, or by SIGTERM or SIGHUP, which stop it
    the same way (``process.stop_like_ctrl_c``): one line (none when
    ``quiet``), and the exit status a shell gives a command that signal
    ended, 128 + the signal."""
    signum = stopped_by() or signal.SIGINT
    if not quiet:
        # AttributeError: no stderr at all (2>&-), outside the guarded run.
        with contextlib.suppress(OSError, AttributeError):
            sys.stderr.write(f"{command}: {_STOPPED.get(signum, 'stopped')}\n")
            sys.stderr.flush()
    return 128 + signum


def command_path(args: Sequence[str] | None) -> str:
    """``muggins CMD`` for the command the command line names, for a message
    that comes after its context is gone."""
    words = list(sys.argv[1:] if args is None else args)
    name = next((w for w in words if not w.startswith("-")), None)
    return f"{NAME} {name}" if name in COMMANDS else NAME


def usage_error_line(e: ClickException) -> str:
    """``muggins CMD: what was wrong (see 'muggins CMD --help')``."""
    ctx = e.ctx if isinstance(e, UsageError) else None
    where = ctx.command_path if ctx is not None else NAME
    return f"{where}: {_message(e)} (see '{where} --help')"


def _message(e: ClickException) -> str:
    param = e.param if isinstance(e, BadParameter) else None
    if isinstance(e, BadParameter) and param is not None:
        if isinstance(param, TyperArgument):
            name = param.metavar or (param.name or "ARG").upper()
        else:
            # Its first long name: --format, not its alias --output-format.
            longs = [o for o in param.opts if o.startswith("--")]
            name = longs[0] if longs else max(param.opts, key=len) if param.opts \
                else str(param.name)
        if isinstance(e, MissingParameter):
            return f"missing {name}"
        return f"{name}: {_value_message(e)}"
    text = e.format_message()
    text = re.sub(r"^(No such (?:option|command)): ?", lambda m: m[1].lower() + " ", text)
    text = re.sub(r" \((?:Possible options|Did you mean):? ?(.*?)\??\)$",
                  lambda m: f" (did you mean {m[1].replace(', ', ' or ')}?)", text)
    text = re.sub(r"\. Did you mean '(.*?)'\?$", r" (did you mean '\1'?)", text)
    return text[:1].lower() + text[1:].rstrip(".")


def _bound_of(param: Any) -> Any:
    """The ``max`` of a Typer parameter, when it has one."""
    desc = getattr(param, "type_descriptor", None)
    return getattr(getattr(desc, "parameter_info", None), "max", None)


def _value_message(e: BadParameter) -> str:
    """A bad value said plainly. Typer validates with pydantic, whose error
    (the exception's cause) knows the value given and the rule it broke."""
    errors: Callable[[], list[dict[str, Any]]] | None = getattr(e.__cause__, "errors", None)
    if errors is not None:
        found = errors()
        if found:
            err = found[0]
            given, kind, limits = err.get("input"), err.get("type"), err.get("ctx") or {}
            shown = shorten(str(given)) if kind and kind.startswith(("greater", "less")) \
                else repr(shorten(given)) if isinstance(given, str) else repr(given)
            if kind == "int_parsing_size":
                # More digits than Python turns into an int: past any bound.
                bound = _bound_of(e.param)
                most = f" (the most is {bound})" if bound is not None else ""
                return f"{shorten(str(given))} is too large{most}"
            if kind in ("greater_than_equal", "greater_than"):
                bound = limits.get("ge", limits.get("gt"))
                return f"{shown} is too small (the least is {bound})" if kind.endswith(
                    "equal") else f"{shown} is too small (it must be above {bound})"
            if kind in ("less_than_equal", "less_than"):
                bound = limits.get("le", limits.get("lt"))
                return f"{shown} is too large (the most is {bound})" if kind.endswith(
                    "equal") else f"{shown} is too large (it must be below {bound})"
            if kind in ("int_parsing", "int_from_float"):
                return f"{shown} is not a whole number"
            if kind == "float_parsing":
                return f"{shown} is not a number"
            if kind == "bool_parsing":
                return f"{shown} is not yes or no"
    text = str(e.message)
    text = re.sub(r"^Value error, ", "", text)
    # "'xml' is not one of 'text', 'json'." -> "'xml' is not one of text, json"
    choices = re.match(r"^(.*) is not one of (.*?)\.?$", text)
    if choices:
        names = ", ".join(c.strip().strip("'") for c in choices[2].split(","))
        return f"{choices[1]} is not one of {names}"
    return text.rstrip(".")


class MugginsTyper(typer.Typer):
    """A Typer whose commands are :class:`MugginsCommand` unless told
    otherwise, so that a command added later is shown as plainly."""

    def command(self, name: str | None = None, **kwargs: Any
                ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", MugginsCommand)
        if name in SUMMARIES:
            kwargs.setdefault("short_help", SUMMARIES[name])
        return super().command(name, **kwargs)


app = MugginsTyper(
    name=NAME,
    cls=MugginsGroup,
    help=(
        "Check, analyse and solve recorded matches of the domino game Muggins.\n\n"
        "Records are plain text in MGN notation (docs/notation.md); the rules "
        "presets are in docs/rules.md and every diagnostic code in "
        "docs/diagnostics.md (`muggins explain CODE`). Start with "
        "`muggins check records/`."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"{NAME} {muggins_cli.__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    *,
    show_version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_show_version,
                           help="Print the installed version and exit.")
    ] = False,
) -> None:
    """Check, analyse and solve recorded matches of the domino game Muggins."""

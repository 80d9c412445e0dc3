"""The `fonte` command: its parser, the commands packages add through entry points, and how
every error of the family maps to an exit code and one line (`engine.cli.exits`)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from engine.cli.commands import add_ask_command, add_library_command, add_verify_command
from engine.cli.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, error_line, exit_code_for
from engine.errors import FonteError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

PLUGIN_GROUP = "fonte.commands"


BUILT_IN_ORDER = ("ask", "verify", "library")
_BUILT_IN = frozenset(BUILT_IN_ORDER)


def fonte_version() -> str:
    # The distributions' metadata is read only when asked for (--version, the plugins of a
    # command that is not built in): `fonte ask --help` reads none.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fonte")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


class _Version(argparse.Action):
    """`--version`: argparse's, with the version read when the option is given."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        parser.exit(message=f"fonte {fonte_version()}\n")


def _say(message: str) -> None:
    """A line on the terminal through `engine.cli.console` (rich), imported only when a line
    is said: help and a command's own parsing import no console."""
    from engine.cli import console

    console.say(message)


def _parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The parser; `plugins` loads the commands other packages add (`fonte bot`, `fonte
    eval`), which a built-in command does not need to pay for. Their names are listed in
    the usage line when loaded; a built-in command's own errors show its own usage."""
    parser = argparse.ArgumentParser(prog="fonte", description="Cited research reports.")
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    commands = parser.add_subparsers(dest="command", required=True)
    add_ask_command(commands)
    add_verify_command(commands)
    add_library_command(commands)
    for entry in entry_points(group=PLUGIN_GROUP) if plugins else ():
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]
        try:
            register = entry.load()
        except ImportError as error:  # an optional extra not installed: say so when asked
            _add_unavailable(commands, entry, error)
            continue
        register(commands)
    commands.metavar = "{" + ",".join(commands.choices) + "}"
    return parser


def entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The installed entry points of `group` (importlib.metadata's, imported when listed)."""
    from importlib.metadata import entry_points as installed

    return tuple(installed(group=group))


def _add_unavailable(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    entry: EntryPoint,
    error: ImportError,
) -> None:
    """`fonte NAME` for a command whose package cannot be imported: a one-line error that
    names what to install, instead of a traceback for every other command too."""
    missing = error.name or str(error)
    requirements = entry.dist.requires if entry.dist is not None else None
    extra = extra_requiring(requirements or [], missing)
    install = f"pip install -e '.[{extra}]'" if extra else f"install {missing}"
    message = f"fonte {entry.name} needs {missing}, which is not installed: {install}"
    # Takes whatever follows, options included ("\0" is a prefix no argument starts with).
    parser = commands.add_parser(
        entry.name, help=f"(unavailable: {install})", add_help=False, prefix_chars="\0"
    )
    parser.add_argument("arguments", nargs="*")

    def unavailable(args: argparse.Namespace) -> int:
        _say(f"error: {message}")
        return EXIT_BAD_INPUT

    parser.set_defaults(handler=unavailable)


_EXTRA_REQUIREMENT = re.compile(r"^([A-Za-z0-9._-]+).*;\s*extra\s*==\s*['\"]([^'\"]+)['\"]")


def extra_requiring(requirements: Sequence[str], module: str) -> str | None:
    """The extra whose requirements (a distribution's `Requires-Dist` lines) name the
    distribution of `module` ("slack_bolt" is distributed as "slack-bolt")."""
    wanted = _normalised(module.split(".")[0])
    for line in requirements:
        match = _EXTRA_REQUIREMENT.match(line)
        if match and _normalised(match.group(1)) == wanted:
            return match.group(2)
    return None


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _subparsers(
    parser: argparse.ArgumentParser,
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    raise LookupError("the fonte parser has no commands")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    built_in = bool(arguments) and arguments[0] in _BUILT_IN
    parser = _parser(plugins=not built_in)
    args, unknown = parser.parse_known_args(arguments)
    if unknown:  # said by the command's own parser, whose usage is the one that helps
        command = _subparsers(parser).choices[args.command]
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except FonteError as error:  # bad input, a library or provider that fails: one line
        _say(error_line(error))
        return exit_code_for(error)
    except KeyboardInterrupt:  # before research started (e.g. while indexing): nothing to save
        _say("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())

"""typer's command classes, adjusted: expressions may start with `-`, flags show no type, and
Ctrl-C says KeyboardInterrupt."""

from __future__ import annotations

import re

from typer import Exit
from typer.core import TyperCommand, TyperGroup

from gradcli.cli import limits
from gradcli.cli.runner import interrupted

# An option the user may have mistyped (`--wrtt`): left to the parser, which names it.
_LONG_OPTION = re.compile(r"--[A-Za-z][\w-]*(=.*)?\Z", re.DOTALL)


def _untyped_flags(params: list) -> list:
    """Flags (--json, -q, --help, --version) take no value: show no `<bool>` type beside them."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Group(TyperGroup):
    def get_params(self, ctx):
        return _untyped_flags(super().get_params(ctx))


class Command(TyperCommand):
    """A command whose first argument (EXPR, or eval's PROGRAM) may start with `-`, as in
    `gradcli eval '-x**2'`: a token that is not one of the command's options is taken for that
    argument, as though it came after `--`. Ctrl-C while it runs is reported as `run` reports
    it (typer alone would exit 130 silently). The command's --max-memory and --timeout are
    applied here, around the whole command; a command with `timeout_each_statement` receives
    its --timeout instead."""

    timeout_each_statement = False

    def get_params(self, ctx):
        return _untyped_flags(super().get_params(ctx))

    def invoke(self, ctx):
        limits.set_memory_limit(ctx.params.pop("max_memory", None))
        timeout = None if self.timeout_each_statement else ctx.params.pop("timeout", None)
        try:
            with limits.time_limit(timeout):
                return super().invoke(ctx)
        except limits.TimedOut:
            raise Exit(limits.report_timeout(timeout)) from None
        except KeyboardInterrupt:
            raise Exit(interrupted()) from None

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._expression_first(ctx, args))

    def _expression_first(self, ctx, args: list[str]) -> list[str]:
        """`args` with the options first, then `--`, then the arguments, when an argument
        starts with `-`; otherwise `args` unchanged."""
        takes_value = {}
        for param in self.get_params(ctx):
            if param.param_type_name == "option":
                for name in (*param.opts, *param.secondary_opts):
                    takes_value[name] = not (param.is_flag or param.count)
        options, arguments, dashed, index = [], [], False, 0
        while index < len(args):
            token = args[index]
            index += 1
            if token == "--":
                arguments.extend(args[index:])
                break
            name = token.partition("=")[0] if token.startswith("--") else token
            if name in takes_value:
                options.append(token)
                if takes_value[name] and name == token and index < len(args):
                    options.append(args[index])
                    index += 1
            elif (token.startswith("-") and token != "-" and not arguments
                  and not _LONG_OPTION.match(token)):
                arguments.append(token)
                dashed = True
            else:
                (arguments if not token.startswith("-") or token == "-" else options).append(token)
        return [*options, "--", *arguments] if dashed else args


class StatementCommand(Command):
    """A command that runs statements one by one (the REPL): --timeout limits each of them."""

    timeout_each_statement = True

"""The REPL's %commands: %vars, %graph, %explain, %reset, %history, %run, %save, %time and %help."""

from __future__ import annotations

import re
import sys
import time
from gradcli.engine.records import record
from pathlib import Path
from typing import Callable


@record(frozen=True)
class Command:
    """One %command: what it does with the REPL and its argument, and its line of help."""

    run: Callable
    usage: str
    help: str


def _console():
    from rich.console import Console
    return Console(file=sys.stdout, highlight=False)


def _usage_error(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"UsageError: {message}\n")


def _vars(repl, argument: str) -> None:
    from gradcli.engine.tensor import Tensor
    from gradcli.language.runtime.values import Namespace, type_name
    values = [(n, v) for n, v in repl.variables().items() if not isinstance(v, Namespace)]
    tensors = [(n, v) for n, v in values if isinstance(v, Tensor)]
    others = [(n, v) for n, v in values if not isinstance(v, Tensor)]
    if not values:
        print("No variables yet.")
        return
    console = _console()
    if tensors:
        console.print(_table(
            ("name", "shape", "dtype", "requires_grad", "is_leaf", "grad_fn", ".grad"),
            [(n, str(list(t.shape)), t.dtype.name, str(t.requires_grad), str(t.is_leaf),
              t.grad_fn.name() if t.grad_fn is not None else "",
              "set" if t.grad is not None else "None") for n, t in tensors]))
    if others:
        console.print(_table(("name", "type", "value"), [
            (n, type_name(v), _shorten(repl.session.printer.repr(v))) for n, v in others]))


def _table(columns: tuple, rows: list):
    from rich import box
    from rich.table import Table
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False, pad_edge=False)
    for column in columns:
        table.add_column(column, no_wrap=True, overflow="ellipsis")
    for row in rows:
        table.add_row(*row)
    return table


def _shorten(text: str, limit: int = 60) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _graph(repl, argument: str) -> None:
    import shlex
    from gradcli.cli.graphs.output import GraphError, parse_options, show
    from gradcli.engine.tensor import Tensor
    try:
        name, options = parse_options(shlex.split(argument))
    except (ValueError, GraphError) as error:
        _usage_error(str(error))
        return
    if name is None:
        _usage_error("%graph needs a tensor's name, as in %graph loss "
                     "[--format tree|dot|mermaid|svg|png] [--output FILE] [--max-nodes N]")
        return
    value = repl.variables().get(name)
    if not isinstance(value, Tensor):
        _usage_error(f"no tensor named '{name}'" if value is None else
                     f"'{name}' is not a tensor")
        return
    try:
        show(value, name, repl.variables(), repl.session.printer, **options)
    except GraphError as error:
        _usage_error(str(error))
        return
    if options.get("output"):
        print(f"Wrote the graph of {name} to {options['output']}")


def _explain(repl, argument: str) -> None:
    from gradcli.cli.explain import explain_copy, tensor_names
    from gradcli.engine.errors import TorchError
    from gradcli.engine.tensor import Tensor
    value = repl.variables().get(argument) if argument else None
    if not isinstance(value, Tensor):
        _usage_error("%explain needs a tensor's name, as in %explain loss" if not argument else
                     f"no tensor named '{argument}'" if value is None else
                     f"'{argument}' is not a tensor")
        return
    try:
        explain_copy(value, repl.session.printer, tensor_names(repl.variables()), sys.stdout)
    except TorchError as error:
        sys.stdout.flush()
        sys.stderr.write(f"{error.kind}: {error.message}\n")


def _reset(repl, argument: str) -> None:
    repl.reset()
    print("Variables, grad mode, default dtype and random generator reset.")


def _history(repl, argument: str) -> None:
    for number, text in enumerate(repl.inputs, start=1):
        first, *rest = text.split("\n")
        print(f"{number:>4}  {first}")
        for line in rest:
            print(f"      {line}")


def _run(repl, argument: str) -> None:
    if not argument:
        _usage_error("%run needs a file name")
        return
    try:
        source = Path(argument).read_text(encoding="utf-8")
    except OSError as error:
        _usage_error(f"cannot open '{argument}': {error.strerror}")
        return
    repl.execute(source, argument, echo=False)


_USES_TORCH = re.compile(r"\btorch\b")


def saved_script(statements: list[str]) -> str:
    """The statements as a script that runs under `gradcli run` and under python with torch:
    where they use torch, which the session offers without an import, `import torch` first."""
    script = "".join(statements)
    imported = bool(statements) and statements[0].strip() == "import torch"
    return "import torch\n" + script if _USES_TORCH.search(script) and not imported else script


def _save(repl, argument: str) -> None:
    if not argument:
        _usage_error("%save needs a file name")
        return
    try:
        Path(argument).write_text(saved_script(repl.script), encoding="utf-8")
    except OSError as error:
        _usage_error(f"cannot write '{argument}': {error.strerror}")
        return
    count = len(repl.script)
    print(f"Saved {count} statement{'' if count == 1 else 's'} to {argument}")


def _time(repl, argument: str) -> None:
    if not argument:
        _usage_error("%time needs a statement, as in %time y.backward()")
        return
    start = time.perf_counter()
    repl.execute(argument, "<stdin>", echo=True)
    print(f"Wall time: {format_duration(time.perf_counter() - start)}")


def format_duration(seconds: float) -> str:
    """A duration with three significant digits in s, ms or µs."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-6:.3g} µs"


def _help(repl, argument: str) -> None:
    width = max(len(c.usage) for c in COMMANDS.values())
    print("Type statements as in Python; expressions show their value.")
    print("Enter runs complete input; a blank line ends a block. Tab completes, Ctrl-R searches")
    print("history, Ctrl-C cancels input or stops a running statement, Ctrl-D or exit leaves.\n")
    for command in COMMANDS.values():
        print(f"  {command.usage:<{width}}  {command.help}")


COMMANDS = {
    "vars": Command(_vars, "%vars", "table of variables: shape, dtype, requires_grad, grad_fn"),
    "graph": Command(_graph, "%graph NAME [--format F] [--output FILE]",
                     "tensor NAME's backward graph: tree, dot, mermaid, svg or png"),
    "explain": Command(_explain, "%explain NAME", "narrate a backward pass of tensor NAME, "
                       "step by step (every .grad is left as it was)"),
    "reset": Command(_reset, "%reset", "forget all variables and start afresh"),
    "history": Command(_history, "%history", "the inputs of this session"),
    "run": Command(_run, "%run FILE", "run a script in this session"),
    "save": Command(_save, "%save FILE", "write the statements that succeeded as a script"),
    "time": Command(_time, "%time STATEMENT", "run a statement and show how long it took"),
    "help": Command(_help, "%help", "this list"),
}


def run_command(repl, line: str) -> None:
    """Run one `%name argument` line."""
    name, _, argument = line[1:].partition(" ")
    command = COMMANDS.get(name)
    if command is None:
        _usage_error(f"unknown command '%{name}'; %help lists them")
        return
    command.run(repl, argument.strip())

"""Python's `ast.literal_eval`, as configuration code reads command-line values with it (minGPT's
CfgNode.merge_from_args, nanoGPT's configurator): Python's own, which builds only literals
(numbers, strings, bytes, containers, None, booleans) and runs nothing, so its errors are Python's."""

from __future__ import annotations

import ast

from gradcli.engine import errors
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_HOST_LITERALS = (str, bytes, int, float, complex, bool, type(None))


def _literal_eval(ctx, node_or_string):
    if not isinstance(node_or_string, _HOST_LITERALS):  # no node of the program's is an AST
        raise errors.TorchError("ValueError", "malformed node or string: "
                                f"{ctx.printer.repr(node_or_string)}")
    try:
        return ast.literal_eval(node_or_string)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as error:
        raise errors.TorchError(type(error).__name__, str(error)) from None


AST = Namespace("ast", table(
    entry("literal_eval", _literal_eval, "node_or_string", context=True, frames=0),
))

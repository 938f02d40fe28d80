"""A derivative command's answer on stdout (torch's text or --json), its errors on stderr."""

from __future__ import annotations

import math
import sys
from typing import Callable

import numpy as np

from gradcli.cli.bindings import ExpressionError, UsageError, torch_error
from gradcli.cli.derivatives import (CheckAnswer, Comparison, ExplainAnswer, GradAnswer,
                                     MatrixAnswer)
from gradcli.engine.errors import TorchError
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.frames import GradRuntimeError

SCHEMA_VERSION = 1


def execute(command: str, expression: str, work: Callable[[], object], *, as_json: bool,
            quiet: bool) -> str:
    """Run `work`, print its answer unless `quiet`, report any error on stderr; the status
    ("ok", "mismatch" or "error")."""
    try:
        answer = work()
    except (UsageError, ExpressionError, TorchError, MemoryError) as error:
        if isinstance(error, TorchError):
            error = torch_error(error)
        elif isinstance(error, MemoryError):  # as Python reports it, and `gradcli run` does
            error = ExpressionError(GradRuntimeError("MemoryError", "", None), None)
        _report(command, error)
        if as_json and not quiet:
            _write_json(_header(command, "error", expression) | {"error": error_json(error)})
        return "error"
    if not quiet:
        if as_json:
            _write_json(_header(command, answer.status, expression) | answer_json(answer))
        else:
            write_text(answer)
    return answer.status


def _report(command: str, error: UsageError | ExpressionError) -> None:
    from gradcli.cli.render import format_error, report_error
    if isinstance(error, UsageError):
        sys.stderr.write(f"gradcli {command}: {error}\n")
        return
    source = error.source
    if source is None:
        sys.stderr.write(format_error(error.error, "", ""))
    else:
        report_error(error.error, source.text, source.filename)
    if error.hint:
        sys.stderr.write(f"hint: {error.hint}\n")


def _header(command: str, status: str, expression: str) -> dict:
    return {"schema_version": SCHEMA_VERSION, "command": command, "status": status,
            "expression": expression}


def _write_json(document: dict) -> None:
    import json  # only --json reports need it
    sys.stdout.write(json.dumps(document, allow_nan=False) + "\n")


# ---- text ---------------------------------------------------------------------------------------

def write_text(answer) -> None:
    """grad: the value, then `NAME.grad = ...` as print() shows them; jacobian/hessian: the
    tensor, or `jacobian[x] = ...`/`hessian[x][y] = ...` per input (pair); check: the table."""
    if isinstance(answer, CheckAnswer):
        from gradcli.cli.check_report import print_check
        print_check(answer)
        return
    printer = answer.problem.scope.printer
    if isinstance(answer, ExplainAnswer):
        from gradcli.cli.explain import write_pass
        write_pass(answer.narrated)
        sys.stdout.flush()
    if isinstance(answer, GradAnswer):
        lines = [printer.repr(answer.value)]
        lines += [f"{name}.grad = {printer.repr(g)}" for name, g in answer.grads.items()]
    elif len(answer.blocks) == 1:
        lines = [printer.repr(next(iter(answer.blocks.values())))]
    else:
        lines = [answer.kind + "".join(f"[{n}]" for n in names) + f" = {printer.repr(t)}"
                 for names, t in answer.blocks.items()]
    sys.stdout.write("\n".join(lines) + "\n")


# ---- JSON ---------------------------------------------------------------------------------------

def number_json(value) -> float | int | bool | str:
    """A JSON number, or "nan"/"inf"/"-inf", which JSON cannot write as numbers."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    value = float(value) if isinstance(value, (float, np.float64)) else float(str(value))
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def values_json(array: np.ndarray):
    """Nested lists (a bare number for 0-d); float32 values in their shortest decimal form."""
    return np.vectorize(number_json, otypes=[object])(array).tolist()


def tensor_json(tensor: Tensor | None) -> dict | None:
    if tensor is None:
        return None
    document = {"shape": list(tensor.shape), "dtype": tensor.dtype.name,
                "values": values_json(tensor.data)}
    if tensor.grad_fn is not None:
        document["grad_fn"] = tensor.grad_fn.name()
    return document


def error_json(error: UsageError | ExpressionError) -> dict:
    if isinstance(error, UsageError):
        return {"type": "UsageError", "message": str(error), "source": None, "line": None,
                "column": None, "hint": None}
    inner, source = error.error, error.source
    span = getattr(inner, "span", None)
    line = inner.line if hasattr(inner, "line") else span.line if span else None
    column = inner.column if hasattr(inner, "column") else span.column if span else None
    return {"type": inner.kind, "message": inner.message,
            "source": source.filename if source else None, "line": line, "column": column,
            "hint": error.hint}


def answer_json(answer) -> dict:
    problem = answer.problem
    document = {"inputs": {name: tensor_json(problem.values[name]) for name in problem.inputs}}
    if isinstance(answer, ExplainAnswer):
        document["steps"] = answer.narrated["steps"]
    if isinstance(answer, GradAnswer):
        return document | {"value": tensor_json(answer.value),
                           "grads": {name: tensor_json(g) for name, g in answer.grads.items()}}
    if isinstance(answer, MatrixAnswer):
        blocks = {}
        for names, tensor in answer.blocks.items():
            if answer.kind == "jacobian":
                blocks[names[0]] = tensor_json(tensor)
            else:
                blocks.setdefault(names[0], {})[names[1]] = tensor_json(tensor)
        return document | {answer.kind: blocks}
    return document | check_json(answer)


def check_json(answer: CheckAnswer) -> dict:
    tol, rows = answer.tolerances, answer.rows
    return {
        "dtype": answer.dtype.name,
        "tolerances": {"eps": tol.eps, "atol": tol.atol, "rtol": tol.rtol,
                       "relative_step": tol.relative},
        "samples": answer.samples, "seed": answer.seed,
        "points": [{name: values_json(v) for name, v in point.items()} for point in answer.points],
        "comparisons": len(rows), "failures": len(answer.failures),
        "max_abs_error": number_json(answer.largest(lambda row: row.abs_error)),
        "max_rel_error": number_json(answer.largest(lambda row: row.rel_error)),
        "worst": [row_json(r) for r in answer.worst(10)],
        "rows": [row_json(r) for r in rows],
    }


def row_json(row: Comparison) -> dict:
    return {"point": row.point, "input": row.input, "element": list(row.element),
            "analytic": number_json(row.analytic), "against": row.against,
            "reference": number_json(row.reference), "abs_error": number_json(row.abs_error),
            "rel_error": number_json(row.rel_error), "ok": row.ok}

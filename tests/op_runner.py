"""Running op-table sample programs (op_cases.Case) in gradcli and, for comparison, in torch."""

from __future__ import annotations

import contextlib
import io
import warnings

from gradcli.engine.autograd import Node
from gradcli.engine.ops.registry import OPS
from gradcli.language.session import Session
from op_case_table import CASES


def gradcli_run(source: str) -> tuple[Session, str]:
    """Run `source` in a fresh Session; fail loudly on an error; return it and its output."""
    out = io.StringIO()
    session = Session(write=out.write)
    outcome = session.run(source)
    if outcome.error is not None:
        raise AssertionError(f"{outcome.error.kind}: {outcome.error.message}\n{source}")
    return session, out.getvalue()


def gradcli_outcome(source: str) -> tuple[str, tuple | None]:
    """Output and (error kind, message) of `source` in a fresh Session."""
    out = io.StringIO()
    outcome = Session(write=out.write).run(source)
    error = None if outcome.error is None else (outcome.error.kind, outcome.error.message)
    return out.getvalue(), error


def torch_outcome(source: str) -> tuple[str, tuple | None]:
    """Output and (exception class, message) of `source` run with real torch."""
    out, error = io.StringIO(), None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
        except Exception as exc:  # the program's own error is the value under comparison
            error = (type(exc).__name__, str(exc))
    return out.getvalue(), error


def graph_keys(tensor) -> set:
    """Keys of all op rows in the graph below `tensor`."""
    keys, stack, seen = set(), [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Node):
            if node.op is not None:
                keys.add(node.op.key)
            stack.extend(edge[0] for edge in node.next_edges)
    return keys


def differentiable_keys() -> list:
    return sorted(key for key, op in OPS.items() if op.vjp)


def case_params():
    """(id, key, case) for every sample program, and a `missing` entry for rows without one."""
    params = []
    for key in differentiable_keys():
        cases = CASES.get(key)
        if not cases:
            params.append((f"{key}-missing", key, None))
            continue
        params += [(f"{key}-{i}", key, c) for i, c in enumerate(cases)]
    return params


def case_param(case_id: str, key: str, case, known_gaps: dict):
    """A pytest param for one case; a case listed in `known_gaps` is a strict xfail with its reason."""
    import pytest
    gap = known_gaps.get(case_id)
    marks = [pytest.mark.xfail(reason=gap, strict=True)] if gap else []
    return pytest.param(key, case, id=case_id, marks=marks)

"""Records torch's grad_fn labels for every op-table sample program into labels.json.

Run `python tests/golden/record_labels.py` (torch 2.13.0 installed) after changing
tests/op_case_table.py. For each case it stores the program, the label of y.grad_fn and the
labels of the first derivatives taken with create_graph=True and a grad_output that requires
grad (the labels of the backward formulas' last ops).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

from op_runner import case_params  # noqa: E402

GOLDEN = Path(__file__).with_name("labels.json")


def derivative_program(names: tuple) -> str:
    """Lines that leave the first derivatives of y in `_grads` (label probes)."""
    return (f"_v = torch.full_like(y, 0.5).requires_grad_()\n"
            f"_grads = torch.autograd.grad(y, [{', '.join(names)}], _v, create_graph=True, "
            "allow_unused=True)\n")


def label(value) -> str:
    """A printable summary of a derivative: its grad_fn name, 'leaf' or 'None' (unused)."""
    if value is None:
        return "None"
    return value.grad_fn.name() if value.grad_fn is not None else "leaf"


def record_case(case) -> dict:
    import torch  # noqa: F401  (the programs import it themselves)
    source = case.source("float32")
    namespace: dict = {"__name__": "__main__"}
    exec(compile(source, "<case>", "exec"), namespace)
    entry = {"source": source, "forward": label(namespace["y"])}
    if case.grad:
        exec(compile(derivative_program(case.names), "<grads>", "exec"), namespace)
        entry["grads"] = [label(g) for g in namespace["_grads"]]
    return entry


def main() -> None:
    from gradcli.engine.ops import load_all
    load_all()  # every op row, as the tests see them (areas otherwise load on first use)
    labels = {pid: record_case(case) for pid, _, case in case_params() if case is not None}
    GOLDEN.write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(labels)} cases to {GOLDEN}")


if __name__ == "__main__":
    main()

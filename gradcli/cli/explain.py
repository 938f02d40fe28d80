"""Narrated backward passes: each node the engine runs, in its order, with the gradient it got,
its rule, the saved values it read, what it sent where, and how leaves' .grad accumulated."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from gradcli.engine.autograd import AccumulateGrad
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

# The names torch's derivatives.yaml gives an op's inputs, where they are not (self, other).
_INPUT_NAMES = {"mm": ("self", "mat2"), "mv": ("self", "vec"), "dot": ("self", "tensor"),
                "pow.Tensor_Scalar": ("self", "exponent"), "pow.Tensor_Tensor": ("self", "exponent"),
                "pow.Scalar": ("self", "exponent")}


def input_names(op) -> tuple:
    return _INPUT_NAMES.get(getattr(op, "key", None), ("self", "other", "third", "fourth"))


def origin_json(origin) -> dict | None:
    if origin is None:
        return None
    return {"file": origin.filename, "line": origin.line, "column": origin.column,
            "end_column": origin.end_column if origin.end_line == origin.line else None,
            "text": origin.text}


def reduction_text(computed: tuple, fitted: tuple) -> str | None:
    """`summed over dim 0 to fit [3]` when broadcasting made the gradient larger."""
    if computed == fitted:
        return None
    lead = len(computed) - len(fitted)
    dims = list(range(lead)) + [lead + i for i, size in enumerate(fitted)
                                if size == 1 and computed[lead + i] != 1]
    which = "dim" if len(dims) == 1 else "dims"
    return (f"summed over {which} {', '.join(map(str, dims))} to fit "
            f"[{', '.join(map(str, fitted))}]")


class Narrator:
    """The engine's backward observer: records each step as plain data (see
    schemas/explain.schema.json); `names` maps id(leaf tensor) to the name it goes by."""

    def __init__(self, printer, names: dict):
        self.printer, self.names = printer, names
        self.passes: list[dict] = []
        self.steps: list[dict] = []

    def show(self, tensor) -> str | None:
        return None if tensor is None else self.printer.repr(Tensor(tensor.data, tensor.dtype))

    def target(self, node) -> str:
        if type(node) is AccumulateGrad:
            return self.names.get(id(node.variable), "a leaf")
        return node.name()

    def running(self, node, grads: list) -> None:
        op, names = getattr(node, "op", None), input_names(getattr(node, "op", None))
        saved = []
        for i, value in enumerate(getattr(node, "saved_args", ()) or ()):
            if type(value) is Tensor and node.saves_anything:
                saved.append({"name": names[i] if i < len(names) else f"input{i}",
                              "value": self.show(value)})
        result = getattr(node, "saved_result", None)
        if type(result) is Tensor:
            saved.append({"name": "result", "value": self.show(result)})
        rules = getattr(op, "rule", ()) or ()
        slots = getattr(node, "edge_slots", range(len(node.next_edges)))
        self.steps.append({
            "node": node.name(), "origin": origin_json(getattr(node, "origin", None)),
            "grad_in": [self.show(g) for g in grads],
            "rule": [{"input": names[slot] if slot < len(names) else f"input{slot}",
                      "formula": rules[slot] if slot < len(rules) and rules[slot] else None}
                     for slot in slots],
            "saved": saved, "sends": []})

    def ran(self, node, sent: list) -> None:
        step = self.steps[-1]
        for rule, edge in zip(step["rule"], sent):
            if edge is None:
                continue
            next_node, computed, grad = edge
            step["sends"].append({
                "input": rule["input"], "to": self.target(next_node), "grad": self.show(grad),
                "reduced": reduction_text(computed.data.shape, grad.data.shape),
                "computed": self.show(computed) if computed is not grad else None})

    def accumulated(self, node, before, grad, after) -> None:
        name = self.names.get(id(node.variable), "leaf")
        previous = None if before is None else self.show(Tensor(before, after.dtype))
        self.steps.append({"node": "AccumulateGrad", "leaf": name, "before": previous,
                           "grad": self.show(grad), "after": self.show(after)})

    def finish(self, origin=None) -> dict | None:
        """Close one backward pass (called after it ran)."""
        if not self.steps:
            return None
        narrated = {"origin": origin_json(origin), "steps": self.steps}
        self.passes.append(narrated)
        self.steps = []
        return narrated


@contextmanager
def narrating(narrator: Narrator):
    previous = STATE.backward_observer
    STATE.backward_observer = narrator
    try:
        yield narrator
    finally:
        STATE.backward_observer = previous


def _indent(text: str, width: int) -> str:
    return text.replace("\n", "\n" + " " * width)


def pass_text(narrated: dict) -> str:
    """One backward pass as numbered, plain-text steps."""
    out = []
    origin = narrated.get("origin")
    if origin is not None:
        out.append(f"backward at {origin['file']}:{origin['line']}: {origin['text']}")
    for number, step in enumerate(narrated["steps"], 1):
        head = f"[{number}] {step['node']}"
        if step["node"] == "AccumulateGrad":
            out.append(f"{head}  {step['leaf']}")
            before = step["before"] if step["before"] is not None else "None"
            line = f"    {step['leaf']}.grad: "
            if "\n" not in before + step["grad"] + step["after"]:
                out.append(f"{line}{before} + {step['grad']} = {step['after']}")
                continue
            out.append(line + _indent(before, len(line)))
            for sign, value in (("+", step["grad"]), ("=", step["after"])):
                out.append(" " * (len(line) - 2) + f"{sign} " + _indent(value, len(line)))
            continue
        where = step["origin"]
        if where is not None:
            head += f"  (line {where['line']}: {where['text']})"
        out.append(head)
        for nr, grad in enumerate(step["grad_in"]):
            label = "    grad in: " if len(step["grad_in"]) == 1 else f"    grad in [{nr}]: "
            out.append(label + _indent(grad if grad is not None else "None", len(label)))
        for rule in step["rule"]:
            if rule["formula"]:
                out.append(f"    rule:    grad_{rule['input']} = {rule['formula']}")
        for saved in step["saved"]:
            label = f"    saved:   {saved['name']} = "
            out.append(label + _indent(saved["value"], len(label)))
        for send in step["sends"]:
            label = f"    sends:   grad_{send['input']} -> {send['to']}: "
            if send["reduced"]:
                out.append(label + _indent(send["computed"], len(label)))
                label = f"             {send['reduced']}: "
            out.append(label + _indent(send["grad"], len(label)))
    return "\n".join(out) + "\n"


def write_pass(narrated: dict, stream=None) -> None:
    """Plain text when not on a terminal; rich's styling on one (without NO_COLOR)."""
    stream = stream or sys.stdout
    text = pass_text(narrated)
    from gradcli.cli.render import use_colour
    if not use_colour(stream):
        stream.write(text)
        return
    from rich.console import Console
    from rich.text import Text
    console = Console(file=stream, highlight=False, soft_wrap=True)
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("["):
            console.print(Text(line, style="bold cyan"))
        elif line.startswith("backward at"):
            console.print(Text(line, style="bold"))
        elif line.lstrip().startswith(("rule:", "saved:")):
            console.print(Text(line, style="dim"))
        else:
            console.print(Text(line))

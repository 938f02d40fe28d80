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

    def __init__(self, printer, names, stream=None):
        """`names`: a dict, or a function giving one when a pass starts (a program's
        variables); `stream`: where each pass is written as it finishes (None keeps them)."""
        self.printer, self.name_source, self.stream = printer, names, stream
        self.names = names if isinstance(names, dict) else {}
        self.passes: list[dict] = []
        self.steps: list[dict] = []

    def finished(self) -> None:
        """The engine's call at the end of each backward pass."""
        if self.stream is not None:
            narrated = self.finish(STATE.origin)
            if narrated is not None:
                write_pass(narrated, self.stream)
                self.stream.flush()

    def _start(self) -> None:
        if not self.steps and not isinstance(self.name_source, dict):
            self.names = self.name_source()

    def show(self, tensor) -> str | None:
        return None if tensor is None else self.printer.repr(Tensor(tensor.data, tensor.dtype))

    def target(self, node) -> str:
        if type(node) is AccumulateGrad:
            return self.names.get(id(node.variable), "a leaf")
        return node.name()

    def running(self, node, grads: list) -> None:
        self._start()
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
        if not any(g is not None and g.dtype.is_complex for g in grads):
            rules = [r and r.replace(".conj()", "") for r in rules]  # real: conj is itself
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
        self._start()
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
def narrating(narrator):
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
        sending = {send["input"] for send in step["sends"]}
        for rule in step["rule"]:
            if rule["formula"] and rule["input"] in sending:
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


def tensor_names(variables: dict) -> dict:
    """id -> name of the tensors among a program's variables (and their .grad's owners)."""
    return {id(value): name for name, value in variables.items() if type(value) is Tensor}


def explain_copy(tensor, printer, names: dict, stream) -> None:
    """Narrate tensor.backward() (of ones, if it is not a scalar) without changing anything: the
    graph is kept, and every leaf's .grad is put back as it was (the same object, same values)."""
    from gradcli.engine import grad_api
    from gradcli.engine.functions import F
    leaves, stack, seen = [], [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is AccumulateGrad:
            grad = node.variable.grad
            leaves.append((node.variable, grad, None if grad is None else grad.data.copy()))
        stack.extend(child for child, _ in node.next_edges)
    gradient = None if tensor.numel() == 1 else F.ones_like(tensor)
    narrator = Narrator(printer, names)
    try:
        with narrating(narrator):
            grad_api.backward(tensor, gradient, retain_graph=True)
    finally:
        for leaf, grad, values in leaves:
            leaf.grad = grad
            if grad is not None:
                grad.data[...] = values
    narrated = narrator.finish()
    if narrated is not None:
        write_pass(narrated, stream)

"""gradcli explain, run --explain and --explain-to (%explain: test_repl.py; error notes:
test_error_notes.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from snippets import without_notes

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "explain"
SCHEMA = json.loads((ROOT / "schemas" / "explain.schema.json").read_text())
SEEDS = sorted((ROOT / "examples" / "seeds").glob("*.py"))

# name: (EXPR, bindings, the same in torch: leaves then the expression)
CASES = {
    "pow": ("x**y", ["x=3", "y=4"],
            "x = torch.tensor(3., requires_grad=True); y = torch.tensor(4., requires_grad=True)",
            "x**y"),
    "layer": ("(W @ x + b).tanh().sum()", ["W=[[1,2],[3,4]]", "x=[0.1,0.2]", "b=[0.5,-0.5]"],
              "W = torch.tensor([[1.,2],[3,4]], requires_grad=True); "
              "x = torch.tensor([0.1,0.2], requires_grad=True); "
              "b = torch.tensor([0.5,-0.5], requires_grad=True)",
              "(W @ x + b).tanh().sum()"),
    "broadcast": ("(a * b).exp().mean()", ["a=[[1,2,3],[4,5,6]]", "b=[0.1,0.2,0.3]"],
                  "a = torch.tensor([[1.,2,3],[4,5,6]], requires_grad=True); "
                  "b = torch.tensor([0.1,0.2,0.3], requires_grad=True)",
                  "(a * b).exp().mean()"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_explain_matches_golden(run_gradcli, name):
    expr, bindings, _, _ = CASES[name]
    done = run_gradcli(["explain", expr, *bindings])
    assert done.returncode == 0, done.stderr
    golden = GOLDEN / f"{name}.txt"
    if not golden.exists():  # recorded once, then held
        golden.write_text(done.stdout)
    assert _steps(done.stdout) == _steps(golden.read_text())


def _steps(text: str) -> tuple:
    """The narration's steps, the leaves' in any order (the engine runs ready AccumulateGrad
    nodes, all of sequence number -1, in an order that depends on object ids), and the answer
    that follows them."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if not line.startswith(("[", " ")))
    answer, story = lines[end:], "\n".join(lines[:end])
    blocks = [re.sub(r"^\[\d+\] ", "", b) for b in re.split(r"\n(?=\[\d+\] )", story)]
    leaves = sorted(b for b in blocks if b.startswith("AccumulateGrad"))
    return [b for b in blocks if not b.startswith("AccumulateGrad")], leaves, answer


def test_broadcast_reduction_is_named(run_gradcli):
    done = run_gradcli(["explain", *CASES["broadcast"][:1], *CASES["broadcast"][1]])
    assert "summed over dim 0 to fit [3]" in done.stdout


def _torch_steps(torch, leaves: str, expr: str) -> tuple[list, dict]:
    """Each node in the order torch runs it: (its name, reprs of the gradients it receives,
    of those it sends (None where an input needs none), and of the saved tensors it reads, by
    the names torch gives them); and the leaves' .grad reprs."""
    scope = {"torch": torch}
    exec(leaves, scope)
    out = eval(expr, scope)
    order, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen or type(node).__name__ == "AccumulateGrad":
            continue
        seen.add(node)
        saved = {name[len("_saved_"):]: repr(getattr(node, name).detach()) for name in dir(node)
                 if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor)}
        node.register_hook(lambda inputs, outputs, node=node, saved=saved: order.append(
            (node.name(), [repr(g) for g in outputs],
             [None if g is None else repr(g) for g in inputs], saved)))
        stack.extend(child for child, _ in node.next_functions)
    out.backward()
    grads = {k: repr(v.grad) for k, v in scope.items()
             if isinstance(v, torch.Tensor) and v.is_leaf and v.grad is not None}
    return order, grads


@pytest.mark.parametrize("name", sorted(CASES))
def test_narrated_gradients_are_torchs(run_gradcli, name):
    """Every value in every step: received, sent and saved, against torch's hooks and saved
    tensors."""
    torch = pytest.importorskip("torch")
    expr, bindings, leaves, torch_expr = CASES[name]
    done = run_gradcli(["explain", expr, *bindings, "--json"])
    document = json.loads(done.stdout)
    jsonschema.validate(document, SCHEMA)
    steps = [s for s in document["steps"] if s["node"] != "AccumulateGrad"]
    order, grads = _torch_steps(torch, leaves, torch_expr)
    assert [(s["node"], s["grad_in"]) for s in steps] == [(n, g) for n, g, _, _ in order]
    for step, (_, _, sent, saved) in zip(steps, order):
        assert [send["grad"] for send in step["sends"]] == [g for g in sent if g is not None]
        assert {v["name"]: v["value"] for v in step["saved"]} == saved
    accumulated = {s["leaf"]: s["after"] for s in document["steps"]
                   if s["node"] == "AccumulateGrad"}
    assert accumulated == grads


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem)
def test_run_explain_keeps_output_and_ends_on_printed_grads(run_gradcli, normalize_addresses,
                                                            seed):
    plain = run_gradcli(["run", str(seed)])
    done = run_gradcli(["run", "--explain", str(seed)])
    assert normalize_addresses(done.stdout) == normalize_addresses(plain.stdout)
    assert done.returncode == plain.returncode
    for line in without_notes(plain.stderr).splitlines():
        assert line in done.stderr
    finals = {}
    for leaf, after in re.findall(r"\n    (\w+)\.grad: .*? = (tensor\([^\n]*)", done.stderr):
        finals[leaf] = after
    for leaf, value in finals.items():
        if f"print({leaf}.grad)" in seed.read_text() and "zero_" not in seed.read_text():
            assert value in plain.stdout


def test_explain_to_file(run_gradcli, tmp_path):
    script = tmp_path / "p.py"
    script.write_text("import torch\nx = torch.tensor(2., requires_grad=True)\n"
                      "y = x * x\ny.backward()\nprint(x.grad)\n")
    target = tmp_path / "story.txt"
    done = run_gradcli(["run", "--explain-to", str(target), str(script)])
    assert done.stdout == "tensor(4.)\n" and done.stderr == ""
    story = target.read_text()
    assert "[1] MulBackward0  (line 3: x * x)" in story
    assert "x.grad: None + tensor(4.) = tensor(4.)" in story



def test_long_tensors_are_summarised_as_torch_prints_them(run_gradcli):
    torch = pytest.importorskip("torch")
    done = run_gradcli(["explain", "(x * x).sum()", "x=torch.arange(2000.)", "--json"])
    mul = [s for s in json.loads(done.stdout)["steps"] if s["node"] == "MulBackward0"][0]
    x = torch.arange(2000.)
    assert [s["value"] for s in mul["saved"]] == [repr(x), repr(x)]
    assert mul["grad_in"] == [repr(torch.ones(2000))]

"""gradcli explain, run --explain, %explain and the notes that name both lines of an error."""

from __future__ import annotations

import json
import re
import subprocess
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
    """(node name, reprs of its incoming gradients) in the order torch runs them, and the
    leaves' .grad reprs."""
    scope = {"torch": torch}
    exec(leaves, scope)
    out = eval(expr, scope)
    order, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen or type(node).__name__ == "AccumulateGrad":
            continue
        seen.add(node)
        node.register_hook(lambda inputs, outputs, node=node: order.append(
            (node.name(), [repr(g) for g in outputs])))
        stack.extend(child for child, _ in node.next_functions)
    out.backward()
    grads = {k: repr(v.grad) for k, v in scope.items()
             if isinstance(v, torch.Tensor) and v.is_leaf and v.grad is not None}
    return order, grads


@pytest.mark.parametrize("name", sorted(CASES))
def test_narrated_gradients_are_torchs(run_gradcli, name):
    torch = pytest.importorskip("torch")
    expr, bindings, leaves, torch_expr = CASES[name]
    done = run_gradcli(["explain", expr, *bindings, "--json"])
    document = json.loads(done.stdout)
    jsonschema.validate(document, SCHEMA)
    steps = document["steps"]
    order, grads = _torch_steps(torch, leaves, torch_expr)
    ours = [(s["node"], s["grad_in"]) for s in steps if s["node"] != "AccumulateGrad"]
    assert ours == order
    accumulated = {s["leaf"]: s["after"] for s in steps if s["node"] == "AccumulateGrad"}
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


# ---- errors that name both lines ----------------------------------------------------------------

def _error(run_gradcli, tmp_path, program: str) -> subprocess.CompletedProcess:
    script = tmp_path / "prog.py"
    script.write_text("import torch\n" + program)
    return run_gradcli(["run", str(script)])


def _notes(stderr: str) -> list[tuple[int, str]]:
    return [(int(line), text) for line, text in
            re.findall(r"prog\.py:(\d+):\d+: note: (.*)", stderr)]


def test_backward_twice_names_the_first_backward_in_another_function(run_gradcli, tmp_path):
    done = _error(run_gradcli, tmp_path, (
        "def step(loss):\n"
        "    loss.backward()\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = (x * x).sum()\n"
        "step(y)\n"
        "y.backward()\n"))
    assert done.returncode == 1 and done.stdout == ""
    assert without_notes(done.stderr).splitlines()[-1].startswith(
        "RuntimeError: Trying to backward through the graph a second time")
    notes = _notes(done.stderr)
    assert notes[0][0] == 3 and "retain_graph=True" in notes[0][1]
    assert notes[1][0] == 5 and "MulBackward0" in notes[1][1]


def test_inplace_modification_names_save_and_write_in_a_loop(run_gradcli, tmp_path):
    done = _error(run_gradcli, tmp_path, (
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "b = a.exp()\n"
        "for i in range(2):\n"
        "    b.add_(1)\n"
        "b.sum().backward()\n"))
    assert done.returncode == 1
    notes = _notes(done.stderr)
    assert notes == [(3, "saved here by ExpBackward0 at version 0"),
                     (5, "modified in place here (now at version 2)")]


@pytest.mark.parametrize("program, line, reason", [
    ("x = torch.tensor([1., 2.])\nx.sum().backward()\n", 2, "created here without requires_grad"),
    ("x = torch.ones(2, requires_grad=True)\nz = x.detach()\n(z * 2).sum().backward()\n", 3,
     "detached from the graph here"),
    ("x = torch.ones(2, requires_grad=True)\ndef f(t):\n    with torch.no_grad():\n"
     "        return (t * 2).sum()\nf(x).backward()\n", 5, "grad mode was off"),
])
def test_no_grad_fn_says_why(run_gradcli, tmp_path, program, line, reason):
    done = _error(run_gradcli, tmp_path, program)
    assert without_notes(done.stderr).splitlines()[-1] == (
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn")
    notes = _notes(done.stderr)
    assert notes and notes[0][0] == line and reason in notes[0][1], done.stderr


def test_notes_change_neither_stdout_nor_exit_code(run_gradcli, tmp_path):
    done = _error(run_gradcli, tmp_path, "x = torch.ones(1, requires_grad=True)\nprint(1)\n"
                  "y = x * 2\ny.backward()\ny.backward()\n")
    assert done.stdout == "1\n" and done.returncode == 1

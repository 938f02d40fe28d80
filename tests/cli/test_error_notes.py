"""Errors and warnings that name both lines: after torch's own text (checked against torch run
on the same program), notes give each other line involved, with its source and a caret, when
the lines are in different functions, in a loop, and in the REPL (the input's number)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from snippets import without_notes

NOTE = re.compile(r"^(.+?):(\d+):(\d+): note: (.*)$")
SAVED, MODIFIED = "saved here by ExpBackward0 at version 0", "modified in place here"
FREED = ("the graph was first backpropagated and freed here: pass retain_graph=True to this call "
         "to backward through it again")
LEAF = "made a leaf that requires grad here"
NON_LEAF = ("computed here by {}, so it is not a leaf: call .retain_grad() on it before "
            "backward() to keep its .grad")
NO_GRAD_FN = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"

# name: (program after `import torch`, the line torch's report points at, [(line, note)]);
# a note's text is matched from its start.
SCRIPTS = {
    "inplace modified, functions": (
        "def forward(a):\n"
        "    return a.exp()\n"
        "def corrupt(t):\n"
        "    t.mul_(2)\n"
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "b = forward(a)\n"
        "corrupt(b)\n"
        "b.sum().backward()\n", 9, [(3, SAVED), (5, MODIFIED + " (now at version 1)")]),
    "inplace modified, loop": (
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "b = a.exp()\n"
        "for i in range(2):\n"
        "    b.add_(1)\n"
        "b.sum().backward()\n", 6, [(3, SAVED), (5, MODIFIED + " (now at version 2)")]),
    "backward twice, functions": (
        "def step(loss):\n"
        "    loss.backward()\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = (x * x).sum()\n"
        "step(y)\n"
        "y.backward()\n", 7,
        [(3, FREED), (5, "MulBackward0 saved tensors here, needed again by the second backward")]),
    "backward twice, loop": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = (x * x).sum()\n"
        "for step in range(2):\n"
        "    y.backward()\n", 5, [(5, FREED), (3, "MulBackward0 saved tensors here")]),
    "no grad_fn: created, function": (
        "def data():\n"
        "    return torch.tensor([1., 2.])\n"
        "x = data()\n"
        "(x * 2).sum().backward()\n", 5, [(3, "created here without requires_grad=True")]),
    "no grad_fn: detached, function": (
        "def frozen(t):\n"
        "    return t.detach()\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "z = frozen(x)\n"
        "(z * 2).sum().backward()\n", 6, [(3, "detached from the graph here")]),
    "no grad_fn: no_grad, function": (
        "x = torch.ones(2, requires_grad=True)\n"
        "def f(t):\n"
        "    with torch.no_grad():\n"
        "        return (t * 2).sum()\n"
        "f(x).backward()\n", 6,
        [(5, "computed here while grad mode was off (no_grad)"),
         (4, "grad mode was turned off here")]),
    "no grad_fn: argmax, loop": (
        "w = torch.ones(3, requires_grad=True)\n"
        "total = 0\n"
        "for i in range(2):\n"
        "    total = total + (w * i).argmax()\n"
        "total.backward()\n", 6, [(5, "computed here by argmax, which is not differentiable")]),
    "no grad_fn: integer cast": (
        "w = torch.ones(3, requires_grad=True)\n"
        "n = w.long()\n"
        "n.sum().backward()\n", 4, [(3, "converted here to torch.int64, which cannot require")]),
    "no grad_fn: comparison": (
        "w = torch.ones(3, requires_grad=True)\n"
        "mask = w > 0\n"
        "mask.float().sum().backward()\n", 4, [(3, "computed here by gt, which is not")]),
    "leaf in place, functions": (
        "def make():\n"
        "    return torch.zeros(3).requires_grad_()\n"
        "def update(p):\n"
        "    p -= 0.1\n"
        "w = make()\n"
        "update(w)\n", 5, [(3, LEAF)]),
    "leaf in place, loop": (
        "w = torch.tensor([1., 2.], requires_grad=True)\n"
        "for step in range(3):\n"
        "    loss = (w * w).sum()\n"
        "    loss.backward()\n"
        "    w -= 0.1 * w.grad\n", 6, [(2, LEAF)]),
    "non-leaf grad, functions": (
        "def hidden(x):\n"
        "    return x.exp()\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "h = hidden(x)\n"
        "h.sum().backward()\n"
        "print(h.grad)\n", 7, [(3, NON_LEAF.format("ExpBackward0"))]),
    "non-leaf grad, loop": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "for i in range(2):\n"
        "    h = x * i\n"
        "    h.sum().backward()\n"
        "    print(h.grad)\n", 6, [(4, NON_LEAF.format("MulBackward0"))]),
    "shape mismatch, functions": (
        "def features():\n"
        "    return torch.ones(2, 3)\n"
        "def weights():\n"
        "    return torch.ones(4, 2)\n"
        "y = features() @ weights()\n", 6,
        [(3, "mat1 got its shape [2, 3] here"), (5, "mat2 got its shape [4, 2] here")]),
    "shape mismatch, loop": (
        "a = torch.ones(3, requires_grad=True)\n"
        "for n in range(3, 5):\n"
        "    b = torch.ones(n)\n"
        "    c = (a * 2).add(b)\n", 5,
        [(5, "tensor a got its shape [3] here"), (4, "tensor b got its shape [4] here")]),
    "shape mismatch, method on a matrix and a vector": (
        "W = torch.randn(3, 4)\n"
        "x = torch.randn(3)\n"
        "y = W.mv(x)\n", 4, [(2, "mat got its shape [3, 4] here"),
                             (3, "vec got its shape [3] here")]),
}


def _run_torch(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONWARNINGS="default"))


def _check_note_lines(lines: list[str], source_lines: list[str]) -> list[tuple]:
    """(file, line, text) of each note, checking the source line and caret under it."""
    notes = []
    for i, line in enumerate(lines):
        match = NOTE.match(line)
        if match:
            file, number, column, text = match.groups()
            number, column = int(number), int(column)
            if source_lines is not None:
                assert lines[i + 1] == f"{number:>4} | {source_lines[number - 1]}"
            assert lines[i + 2].index("^") == len(f"{number:>4} | ") + column - 1
            notes.append((file, number, text))
    return notes


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_notes_name_the_lines(run_gradcli, tmp_path, name):
    pytest.importorskip("torch")
    program, line, expected = SCRIPTS[name]
    script = tmp_path / "prog.py"
    source = "import torch\n" + program
    script.write_text(source)
    ours, theirs = run_gradcli(["run", str(script)]), _run_torch(script)
    assert ours.stdout == theirs.stdout
    assert ours.returncode == (1 if theirs.returncode else 0)
    report = without_notes(ours.stderr)
    if theirs.returncode:  # torch's last traceback line is ours, and ours points at `line`
        assert report.splitlines()[-1] == theirs.stderr.splitlines()[-1]
        assert re.fullmatch(rf"{re.escape(str(script))}:{line}:\d+", report.splitlines()[0])
    else:  # a warning: Python's two lines, byte for byte (with where torch's C++ raised it)
        assert report == theirs.stderr
        assert report.startswith(f"{script}:{line}: UserWarning: ")
    notes = _check_note_lines(ours.stderr.splitlines(), source.splitlines())
    assert [(n, t[:len(text)]) for (_, n, t), (_, text) in zip(notes, expected)] == expected
    assert all(file == str(script) for file, _, _ in notes)


def test_no_notes_when_both_operands_come_from_the_error_line(run_gradcli, tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import torch\ny = torch.ones(2, 3) + torch.ones(4)\n")
    done = run_gradcli(["run", str(script)])
    assert done.returncode == 1 and "note:" not in done.stderr


# The REPL: each input is one history entry; a note names `<input N>` and the line within it.
REPL = {
    "inplace modified": (
        ["a = torch.tensor([1., 2.], requires_grad=True)", "b = a.exp()", "b.add_(1)",
         "b.sum().backward()"],
        [(2, 1, SAVED), (3, 1, MODIFIED + " (now at version 1)")]),
    "backward twice": (
        ["x = torch.tensor([1., 2.], requires_grad=True)", "y = (x * x).sum()",
         "y.backward()", "y.backward()"],
        [(3, 1, FREED), (2, 1, "MulBackward0 saved tensors here")]),
    "no grad_fn under no_grad": (
        ["x = torch.ones(2, requires_grad=True)", "with torch.no_grad():\n    y = x * 2\n",
         "y.sum().backward()"],
        [(2, 2, "computed here while grad mode was off"), (2, 1, "grad mode was turned off")]),
    "leaf in place": (
        ["w = torch.ones(2)", "w.requires_grad = True", "w.add_(1)"], [(2, 1, LEAF)]),
    "non-leaf grad": (
        ["x = torch.tensor([1., 2.], requires_grad=True)", "h = x.exp()", "h.grad"],
        [(2, 1, NON_LEAF.format("ExpBackward0"))]),
    "shape mismatch": (
        ["a = torch.ones(2, 3)", "b = torch.ones(4)", "a + b"],
        [(1, 1, "tensor a got its shape [2, 3] here"), (2, 1, "tensor b got its shape [4] here")]),
}


@pytest.mark.parametrize("name", sorted(REPL))
def test_repl_notes_name_the_inputs(gradcli_exe, tmp_path, name):
    inputs, expected = REPL[name]
    done = subprocess.run([gradcli_exe, "repl"], input="\n".join(inputs) + "\n", text=True,
                          capture_output=True, timeout=60,
                          env=dict(os.environ, XDG_STATE_HOME=str(tmp_path)))
    notes = _check_note_lines(done.stderr.replace(">>> ", "").replace("... ", "").splitlines(),
                              None)
    assert [(file, n, t[:len(text)]) for (file, n, t), (_, _, text) in zip(notes, expected)] == [
        (f"<input {entry}>", line, text) for entry, line, text in expected]
    for (file, line, _), (entry, _, _) in zip(notes, expected):  # the note shows that input
        source = inputs[entry - 1].split("\n")[line - 1]
        assert f"{line:>4} | {source}" in done.stderr


def test_notes_change_neither_stdout_nor_exit_code(run_gradcli, tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import torch\nx = torch.ones(1, requires_grad=True)\nprint(1)\n"
                      "y = x * 2\ny.backward()\ny.backward()\n")
    done = run_gradcli(["run", str(script)])
    assert done.stdout == "1\n" and done.returncode == 1 and "note:" in done.stderr

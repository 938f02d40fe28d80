"""The REPL driven through a real pseudo-terminal, as a person types, via the installed script."""

from __future__ import annotations

import importlib.util
import os
import signal
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from snippets import without_notes

pexpect = pytest.importorskip("pexpect")

SEEDS = sorted((Path(__file__).resolve().parents[2] / "examples" / "seeds").glob("*.py"))
# prompt_toolkit turns bracketed paste on as each prompt starts and off once input is accepted:
# what the program prints lies between the two.
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
PROMPT = re.compile(re.escape(PASTE_ON) + r"(?:\x1b\[[0-9;?]*[A-Za-z])*>>>")
ANSI = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][A-Z0-9]|[=>])")
UP, CTRL_R = "\x1b[A", "\x12"


def plain(text: str) -> str:
    """Terminal output as the text a person reads: no escape sequences, '\\n' line ends."""
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "")


def _default_interrupts() -> None:
    """Ctrl-C as in a person's terminal, even when the tests were started in the background
    (which leaves SIGINT ignored, and an ignored SIGINT stays ignored in gradcli, as in Python)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Repl:
    """One `gradcli` REPL in a pseudo-terminal."""

    def __init__(self, exe: str, state_home: Path, cwd: Path) -> None:
        env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1",
                   XDG_STATE_HOME=str(state_home), COLUMNS="100", LINES="30")
        self.child = pexpect.spawn(exe, env=env, cwd=str(cwd), encoding="utf-8", timeout=60,
                                   dimensions=(30, 100), preexec_fn=_default_interrupts)
        self.child.delaybeforesend = None  # each exchange waits for the prompt instead
        self.child.expect(PROMPT)

    def submit(self, keys: str = "") -> str:
        """Type `keys`, press Enter, wait for the next prompt; what was printed meanwhile."""
        self.child.send(keys + "\r")
        return self.wait()

    def wait(self) -> str:
        self.child.expect(PROMPT)
        return plain(self.child.before.rpartition(PASTE_OFF)[2])

    def paste(self, text: str) -> str:
        """Paste `text` as a terminal with bracketed paste does; it runs if it ends a line."""
        self.child.send("\x1b[200~" + text + "\x1b[201~")
        return self.wait()

    def complete(self, keys: str, completion: str) -> None:
        """Type `keys` then Tab, and wait until the editor shows the rest of the word
        (`completion`, which must not occur in `keys`)."""
        self.child.send(keys + "\t")
        self.child.expect_exact(completion)

    def type_lines(self, lines: list[str]) -> str:
        """Type a block line by line, then the blank line that ends it."""
        for line in lines:
            self.child.send(line + "\r")
        return self.submit()

    def close(self) -> None:
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0


@pytest.fixture(scope="module")
def seed_repl(gradcli_exe, tmp_path_factory):
    """One REPL for all seed examples; each starts with %reset."""
    folder = tmp_path_factory.mktemp("seeds")
    repl = Repl(gradcli_exe, folder / "state", folder)
    yield repl
    repl.close()


@pytest.fixture
def start(gradcli_exe, tmp_path):
    """start() opens a REPL sharing one state directory (so history persists between them)."""
    opened = []

    def open_repl() -> Repl:
        opened.append(Repl(gradcli_exe, tmp_path / "state", tmp_path))
        return opened[-1]

    yield open_repl
    for repl in opened:
        if repl.child.isalive():
            repl.child.terminate(force=True)


@pytest.fixture
def expected(gradcli_exe, normalize_addresses):
    """expected(program, echo=True): what `gradcli eval` (or `run`) prints for `program`, its
    standard output and error interleaved as on a terminal."""
    def output(program: str, echo: bool = True) -> str:
        result = subprocess.run(
            [gradcli_exe, "eval" if echo else "run", "-"], input=program, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
            env=dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1"))
        return normalize_addresses(result.stdout)
    return output


def test_for_block_typed_line_by_line(start, expected):
    repl = start()
    assert repl.submit("total = 0") == ""
    # Enter after the header continues with an indented line; typing the body needs no indent.
    assert repl.type_lines(["for i in range(4):", "total = total + i", "print(i)"]) == expected(
        "for i in range(4):\n    print(i)")
    assert repl.submit("total") == expected("total = 0\nfor i in range(4):\n    total += i\ntotal")
    repl.close()


def test_pasted_snippet_runs_as_a_whole(start, expected):
    snippet = ("x = torch.tensor([1., 2.], requires_grad=True)\n"
               "for k in range(2):\n"
               "    y = (x * x).sum()\n"
               "    y.backward()\n"
               "print(x.grad)\n"
               "x.grad * 10\n")
    repl = start()
    assert repl.paste(snippet) == expected(snippet)
    repl.close()


def test_pasted_try_except_catches_a_torch_error(start, expected):
    snippet = ("x = torch.tensor([1., 2.], requires_grad=True)\n"
               "try:\n"
               "    (x * 2).backward()\n"
               "except RuntimeError as e:\n"
               "    print('caught:', e)\n"
               "finally:\n"
               "    print('done')\n"
               "x.grad is None\n")
    repl = start()
    output = repl.paste(snippet)
    assert "caught: grad can be implicitly created only for scalar outputs" in output
    assert output == expected(snippet)
    repl.close()


def test_tab_completes_a_variable_and_a_tensor_method(start, expected):
    program = "weights_of_layer = torch.ones(2, 3, requires_grad=True)\n"
    repl = start()
    repl.submit(program)
    repl.complete("weights_of_", "layer")
    assert repl.submit() == expected(program + "weights_of_layer")
    repl.submit("loss = (weights_of_layer * 2).sum()")
    repl.complete("loss.backw", "ard")
    assert repl.submit("()") == ""
    assert repl.submit("weights_of_layer.grad") == expected(
        program + "(weights_of_layer * 2).sum().backward()\nweights_of_layer.grad")
    repl.close()


def test_history_persists_and_is_searchable(start, tmp_path, expected):
    first = start()
    first.submit("history_marker = 41")
    first.close()
    assert "history_marker = 41" in (tmp_path / "state" / "gradcli" / "history").read_text()
    second = start()
    assert second.submit(UP) == ""  # the previous session's last input, run again
    assert second.submit("history_marker + 1") == expected("41 + 1")
    second.child.send(CTRL_R + "marker = ")
    assert second.submit() == ""  # Enter on the search result runs it
    assert second.submit("history_marker") == expected("41")
    second.close()


def test_enter_on_a_searched_block_runs_the_whole_block(start, expected):
    repl = start()
    block = ["for step in range(3):", "print('step', step * 10)"]
    assert repl.type_lines(block) == expected("for step in range(3):\n    print('step', step * 10)")
    repl.submit("step = 7")
    repl.child.send(CTRL_R + "range(3)")
    repl.child.expect_exact("range(3)")
    assert repl.submit() == expected("for step in range(3):\n    print('step', step * 10)")
    assert repl.submit("step") == expected("2")
    repl.close()


def test_enter_on_a_searched_input_of_several_lines_runs_it(start, expected):
    repl = start()
    repl.child.send("values = [1,\r2]\r")  # Enter inside the list continues the input
    repl.wait()
    repl.submit("values = None")
    repl.child.send(CTRL_R + "values = [1,")
    repl.child.expect_exact("values = [1,")
    assert repl.submit() == ""  # the found input ran whole, though the match is on line 1
    assert repl.submit("values") == expected("[1, 2]")
    repl.close()


def test_completion_after_grad_fn_offers_only_what_works(start, expected):
    repl = start()
    repl.submit("loss = (torch.ones(2, requires_grad=True) * 2).sum()")
    repl.child.send("loss.grad_fn.\t")
    repl.child.expect_exact("next_functions")  # the menu, sorted: name, next_functions, ...
    shown = repl.child.before
    time.sleep(0.5)  # the rest of the menu, were there more
    repl.child.sendintr()
    repl.child.expect(PROMPT)
    menu = plain(shown + repl.child.before)
    assert "name" in menu and "variable" not in menu
    repl.submit("leaf = loss.grad_fn.next_functions[0][0].next_functions[0][0]")
    repl.complete("leaf.v", "ariable")
    assert repl.submit() == expected("torch.ones(2, requires_grad=True)")
    repl.close()


def test_unwritable_history_does_not_crash(gradcli_exe, tmp_path, expected):
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("")
    repl = Repl(gradcli_exe, blocker, tmp_path)
    assert repl.submit("1 + 1") == expected("1 + 1")
    repl.close()


def test_without_a_terminal_the_repl_reads_lines_and_prompts_on_stderr(gradcli_exe, tmp_path,
                                                                       expected):
    program = "x = 2\nfor i in range(2):\n    x = x * 3\n\nx\n"
    result = subprocess.run([gradcli_exe, "repl"], input=program + "%vars\nexit\nx\n",
                            capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, XDG_STATE_HOME=str(tmp_path)))
    assert result.returncode == 0
    assert result.stdout.startswith(expected(program))
    assert result.stdout.count(expected("x = 2\nfor i in range(2):\n    x = x * 3\nx")) == 1
    assert result.stderr == ">>> >>> ... ... >>> >>> >>> "  # one prompt per line read


def test_ctrl_c_interrupts_a_long_loop_and_keeps_variables(start, expected):
    repl = start()
    repl.submit("n = 5")
    repl.child.send("abandoned input")
    repl.child.sendintr()  # Ctrl-C at the prompt cancels the line
    assert repl.wait() == ""
    repl.child.send("for i in range(10**9):\r")
    repl.child.send("if i == 0: print('loop running')\r")
    repl.child.send("n = n + 1\r\r")
    repl.child.expect_exact("loop running")  # the statement runs (not still being read)
    time.sleep(1.5)  # well under way: a Ctrl-C in its first fraction of a second can be lost
    repl.child.sendintr()
    assert "KeyboardInterrupt" in repl.wait()
    assert repl.submit("n") == expected("5")
    repl.close()


def test_errors_leave_the_session_alive_and_unchanged(start, expected):
    repl = start()
    repl.submit("a = torch.ones(2, requires_grad=True)")
    syntax = repl.submit("a = a +")
    assert syntax.endswith(expected("a = a +").splitlines(keepends=True)[-1])
    assert "^" in syntax
    runtime = repl.submit("a = (a * 2).backward()")
    program = "a = torch.ones(2, requires_grad=True)\na = (a * 2).backward()"
    assert runtime.splitlines()[-1] == expected(program).splitlines()[-1]
    assert repl.submit("a") == expected("torch.ones(2, requires_grad=True)")
    assert "NameError" in repl.submit("a = undefined_name")
    assert repl.submit("a") == expected("torch.ones(2, requires_grad=True)")
    repl.close()


def test_vars_and_graph(start, expected):
    program = ("w = torch.ones(2, 3, requires_grad=True)\nx = torch.tensor([1., 2., 3.])\n"
               "loss = (w * x).sum()\ncount = 3")
    labels = expected(program + "\nprint(loss.grad_fn.name(), loss.grad_fn.next_functions[0][0]"
                      ".name())", echo=False).split()
    repl = start()
    repl.paste(program + "\n")
    tree = repl.submit("%graph loss")
    assert tree.splitlines()[0].split() == ["loss", "[]", "float32"]
    for piece in [*labels, "AccumulateGrad", "saved:", "w [2, 3] float32", "x [3] float32"]:
        assert piece in tree, (piece, tree)
    repl.submit("loss.backward()")
    table = repl.submit("%vars")
    for row in (["w", "[2, 3]", "float32", "True", "True", "set"],
                ["loss", "[]", "float32", "True", "False", labels[0], "None"],
                ["count", "int", "3"]):
        assert any(line.split() == " ".join(row).split() for line in table.splitlines()), row
    tree = repl.submit("%graph loss")
    for line in ["freed by backward()", *expected(program + "\nloss.backward()\nw.grad")
                 .splitlines()]:
        assert line in tree, (line, tree)
    repl.close()


def test_save_replays_with_gradcli_run(start, run_gradcli, tmp_path):
    repl = start()
    repl.submit("torch.manual_seed(0)")
    repl.submit("x = torch.randn(3, requires_grad=True)")
    assert "NameError" in repl.submit("x = undefined_name")
    printed = [repl.type_lines(["for step in range(2):", "y = (x * x).sum()", "y.backward()",
                                "print(x.grad)"]),
               repl.submit("print(y, torch.randn(2))")]
    assert "Saved 4 statements" in repl.submit("%save session.py")
    repl.close()
    script = (tmp_path / "session.py").read_text()
    assert "undefined_name" not in script
    assert script.startswith("import torch\ntorch.manual_seed(0)\n")
    replay = run_gradcli(["run", str(tmp_path / "session.py")])
    assert replay.returncode == 0
    assert replay.stdout == "".join(printed)
    if importlib.util.find_spec("torch") is not None:  # and python runs it as torch would
        python = subprocess.run([sys.executable, str(tmp_path / "session.py")],
                                capture_output=True, text=True, timeout=120)
        assert (python.returncode, python.stdout) == (0, replay.stdout)


def test_save_adds_no_import_when_torch_is_not_used(start, tmp_path):
    repl = start()
    repl.submit("total = sum([1, 2, 3])")
    assert "Saved 1 statement to" in repl.submit("%save plain.py")
    repl.close()
    assert (tmp_path / "plain.py").read_text() == "total = sum([1, 2, 3])\n"


def _typed(source: str) -> list[tuple[str, bool]]:
    """The keys a person types for `source` in an auto-indenting REPL, line by line: each line
    without the indent the editor already gives, Backspace to dedent, a blank line to close a
    block; with each, whether Enter there runs the input."""
    keys, auto, in_block = [], 0, False
    for line in source.split("\n"):
        if not line.strip():
            if not in_block:
                keys.append(("", True))
            continue
        indent = len(line) - len(line.lstrip())
        if in_block and indent == 0:
            keys.append(("", True))
        difference = indent - (auto if in_block else 0)
        typed = "\x7f" * (-difference // 4) if difference < 0 else " " * difference
        opens = line.split("#")[0].rstrip().endswith(":")
        in_block = indent > 0 or opens
        auto = indent + 4 if opens else indent
        keys.append((typed + line.lstrip(), not in_block))
    if in_block:
        keys.append(("", True))
    return keys


def _in_order(lines: list[str], within: list[str]) -> bool:
    position = iter(within)
    return all(any(line == other for other in position) for line in lines)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem)
def test_seed_typed_line_by_line_matches_run(seed_repl, run_gradcli, expected,
                                             normalize_addresses, seed):
    """The REPL prints what `gradcli eval` prints (run plus the echo of expression statements,
    as Python's REPL), so `gradcli run`'s output appears in it, line for line in order; typing
    stops at an error, as the script does."""
    source = seed.read_text()
    with ThreadPoolExecutor(2) as pool:  # the reference runs while the REPL is typed into
        running, echoing = pool.submit(run_gradcli, ["run", str(seed)]), pool.submit(expected,
                                                                                     source)
        seed_repl.submit("%reset")
        printed, error = [], None
        for keys, runs in _typed(source):
            if not runs:
                seed_repl.child.send(keys + "\r")
                continue
            output = without_notes(normalize_addresses(seed_repl.submit(keys)))
            printed.append(output.partition("<stdin>:")[0])
            if "<stdin>:" in output:
                error = without_notes(output).splitlines()[-1]
                break
        ran, want = running.result(), echoing.result()
    assert error == (without_notes(ran.stderr).splitlines()[-1] if ran.returncode else None)
    # A script's warnings name their line (`<stdin>:5: UserWarning: ...`); the REPL's do not.
    want = re.sub(r"(?m)^<stdin>:\d+: (?=\w+Warning: )", "", without_notes(want))
    assert "".join(printed) == want.partition("<stdin>:")[0]
    assert _in_order(normalize_addresses(ran.stdout).splitlines(), "".join(printed).splitlines())


# ---- the pieces behind the keys, without a terminal ---------------------------------------------

@pytest.mark.parametrize("text, runs", [
    ("x = 1", True), ("x = [1,", False), ("for i in range(3):", False),
    ("for i in range(3):\n    print(i)", False), ("for i in range(3):\n    print(i)\n", True),
    ("for i in range(3):\n    print(i)\nprint(2)", True), ("if x:\n    a\nelse:", False),
    ("# cell In [48]:", True), ("%vars", True), ("", True)])
def test_enter_runs_complete_input_and_a_blank_line_ends_a_block(text, runs):
    from gradcli.cli.repl.keys import should_submit
    assert should_submit(text) is runs


def test_highlighting_covers_the_text_and_marks_keywords():
    from gradcli.cli.repl.lexer import scanner
    text = 'for i in range(3):  # loop\n    y = x ** 2 if x is not None else "s"\nlet w = [1.5]'
    tokens = scanner().tokens(text)
    assert "".join(piece for _, piece in tokens) == text
    styles = {piece: style for style, piece in tokens}
    assert all("keyword" in styles[word] for word in ("for", "in", "if", "is", "not", "let"))
    assert "comment" in styles["# loop"] and "number" in styles["1.5"]


def test_completions_are_names_the_language_resolves():
    from prompt_toolkit.document import Document

    from gradcli.cli.repl.completer import GradCompleter
    from gradcli.engine.errors import TorchError
    from gradcli.language.runtime import attributes
    from gradcli.language.session import Session
    session = Session(write=lambda text: None)
    session.run("t = torch.ones(2, requires_grad=True)\nxs = [1]\nword = 'a'\n"
                "node = (t * 2).sum().grad_fn\n"
                "leaf = node.next_functions[0][0].next_functions[0][0]\nerror = ValueError(1)")
    variables = session.globals.vars
    completer = GradCompleter(lambda: variables, lambda: [])
    for name in ("t", "torch", "xs", "word", "node", "leaf", "error"):
        names = [c.text for c in completer.get_completions(Document(name + "."), None)]
        assert names
        for attribute in names:
            try:
                attributes.get(variables[name], attribute)
            except TorchError as error:
                assert error.kind != "AttributeError", (name, attribute)
    assert [c.text for c in completer.get_completions(Document("wor"), None)] == ["word"]


def test_graph_formats(start, tmp_path):
    repl = start()
    repl.paste("w = torch.ones(2, requires_grad=True)\nloss = (w * 3).sum()\n")
    mermaid = repl.submit("%graph loss --format mermaid")
    assert "flowchart BT" in mermaid and '"w<br/>#91;2#93; float32' in mermaid
    dot = repl.submit("%graph loss -f dot")
    assert "digraph {" in dot and "fillcolor=lightblue" in dot
    target = tmp_path / "loss.dot"
    assert f"Wrote the graph of loss to {target}" in repl.submit(f"%graph loss -o {target}")
    assert target.read_text().startswith("digraph {")
    assert "UsageError: --format: expected one of" in repl.submit("%graph loss -f gif")
    repl.close()


def test_explain_narrates_and_leaves_grad_unchanged(start):
    repl = start()
    repl.submit("x = torch.tensor([1., 2.], requires_grad=True)")
    repl.submit("y = (x * x).sum()")
    repl.submit("y.backward(retain_graph=True)")
    before = repl.submit("x.grad")
    story = repl.submit("%explain y")
    assert "[1] SumBackward0" in story and "MulBackward0" in story
    assert "x.grad: tensor([2., 4.]) + tensor([2., 4.]) = tensor([4., 8.])" in story
    assert repl.submit("x.grad") == before == "tensor([2., 4.])\n"
    repl.submit("w = torch.tensor(3., requires_grad=True)")
    repl.submit("z = (x * w).sum()")
    assert "w.grad: None + tensor(3.) = tensor(3.)" in repl.submit("%explain z")
    assert repl.submit("print(w.grad, x.grad)") == "None tensor([2., 4.])\n"
    repl.close()


def test_error_notes_name_the_inputs_by_number(start):
    repl = start()
    repl.submit("a = torch.tensor([1., 2.], requires_grad=True)")
    repl.submit("b = a.exp()")
    repl.submit("b.add_(1)")
    report = repl.submit("b.sum().backward()")
    assert ("<input 2>:1:5: note: saved here by ExpBackward0 at version 0\n"
            "   1 | b = a.exp()\n") in report
    assert "<input 3>:1:1: note: modified in place here (now at version 1)\n" in report
    repl.close()

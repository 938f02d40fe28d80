"""`gradcli graph`, `run --graph` and `plot`: DOT and Mermaid goldens, SVG through Graphviz's
`dot` (skipped when it is missing), the error without it, and the text plot on a pty.

Goldens live in tests/cli/graphs/; GRADCLI_RECORD_GRAPHS=1 rewrites them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gradcli.cli.graphs.mermaid import ENTITIES, escape

HERE = Path(__file__).parent / "graphs"
SEEDS = Path(__file__).parents[2] / "examples" / "seeds"
RECORD = bool(os.environ.get("GRADCLI_RECORD_GRAPHS"))
SVG = "{http://www.w3.org/2000/svg}"

# (golden name, program file, tensor to draw)
PROGRAMS = [
    ("seed_backward_call", SEEDS / "000_backward_call.py", "y"),
    ("seed_backward_no_call", SEEDS / "000_backward_no_call.py", "y"),
    ("seed_variable_mean", SEEDS / "002_variable_mean_backward.py", "out"),
    ("seed_pow_tensor_tensor", SEEDS / "003_pow_tensor_tensor.py", "z"),
    ("seed_mse_backward", SEEDS / "004_mse_backward.py", "SR"),
    ("seed_randn_mean", SEEDS / "004_randn_mean_backward.py", "loss"),
    ("two_layer_net", HERE / "two_layer_net.py", "loss"),
    ("custom_function", HERE / "custom_function.py", "y"),
    ("retained", HERE / "retained.py", "loss"),
    ("loop", HERE / "loop.py", "h"),
]
IDS = [name for name, _, _ in PROGRAMS]
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (apt install graphviz)")


def graph_of(run_gradcli, program: Path, name: str, fmt: str) -> str:
    result = run_gradcli(["run", "--graph", name, "--format", fmt, str(program)])
    assert result.returncode == 0, result.stderr
    return result.stdout[result.stdout.index("digraph" if fmt == "dot" else "flowchart"):]


def matches_golden(text: str, path: Path) -> None:
    if RECORD:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("golden,program,name", PROGRAMS, ids=IDS)
def test_dot_golden(run_gradcli, golden, program, name):
    matches_golden(graph_of(run_gradcli, program, name, "dot"), HERE / f"{golden}.dot")


@needs_dot
@pytest.mark.parametrize("golden", IDS)
def test_dot_accepts_golden(golden):
    result = subprocess.run(["dot", "-Tsvg"], input=(HERE / f"{golden}.dot").read_text(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    ET.fromstring(result.stdout)


@pytest.mark.parametrize("golden,program,name", PROGRAMS, ids=IDS)
def test_mermaid_golden(run_gradcli, golden, program, name):
    text = graph_of(run_gradcli, program, name, "mermaid")
    matches_golden(text, HERE / f"{golden}.mmd")
    validate_mermaid(text)


# ---- Mermaid flowchart grammar (the part we write) ----------------------------------------------

NODE_ID = r"n\d+"
LABEL = r'"(?:[^"<>\[\]{}|`#]|#(?:quot|lt|gt|\d+);|<br/>)*"'
STATEMENTS = [re.compile(rf"    {NODE_ID}\[{LABEL}\]"),
              re.compile(rf"    {NODE_ID} (?:-->|-\.-|-\.->) {NODE_ID}"),
              re.compile(r"    classDef [a-z]+ [a-z-]+:[#\w ]+(?:,[a-z-]+:[#\w ]+)*"),
              re.compile(rf"    class {NODE_ID}(?:,{NODE_ID})* [a-z]+")]


def validate_mermaid(text: str) -> None:
    lines = text.splitlines()
    assert lines[0] == "flowchart BT"
    defined, used = set(), set()
    for line in lines[1:]:
        assert any(p.fullmatch(line) for p in STATEMENTS), line
        ids = re.findall(rf"\b{NODE_ID}\b", line.split('"')[0])
        if "[" in line.split('"')[0]:
            assert ids[0] not in defined, f"{ids[0]} defined twice"
            defined.add(ids[0])
        else:
            used.update(ids)
    assert used <= defined, used - defined


def test_mermaid_escapes_syntax_characters():
    assert escape('a<b>"c"[d]{e}|f#g`&') == (
        "a#lt;b#gt;#quot;c#quot;#91;d#93;#123;e#125;#124;f#35;g#96;#38;")
    assert set(ENTITIES) >= set('<>"[]#')


def test_mermaid_labels_with_brackets_and_quotes_validate(run_gradcli):
    result = run_gradcli(["graph", "(w * x).sum()", "w=[1, 2]", 'x=torch.tensor([3., 4.])',
                          "--format", "mermaid", "--backward"])
    assert result.returncode == 0, result.stderr
    validate_mermaid(result.stdout)
    assert '"(w * x).sum()<br/>#91;#93; float32"' in result.stdout
    assert "#91;" in result.stdout and "[2]" not in result.stdout


# ---- SVG through dot, and without it -----------------------------------------------------------

@needs_dot
def test_svg_has_one_element_per_node(run_gradcli, tmp_path):
    args = ["graph", "sin(x) * x**2 + (w * x).sum()", "x=[1, 2]", "w=[3, 4]"]
    dot_text = run_gradcli(args + ["--format", "dot"]).stdout
    nodes = re.findall(r"^\t(n\d+) \[", dot_text, re.M)
    target = tmp_path / "g.svg"
    result = run_gradcli(args + ["--format", "svg", "--output", str(target)])
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    root = ET.parse(target).getroot()
    drawn = [g for g in root.iter(SVG + "g") if g.get("class") == "node"]
    assert sorted(g.find(SVG + "title").text for g in drawn) == sorted(nodes)


@needs_dot
def test_png_from_output_suffix(run_gradcli, tmp_path):
    target = tmp_path / "g.png"
    result = run_gradcli(["graph", "x.exp()", "x=1", "--output", str(target)])
    assert result.returncode == 0, result.stderr
    assert target.read_bytes().startswith(b"\x89PNG")


def test_svg_without_dot_exits_2(gradcli_exe, tmp_path):
    result = subprocess.run([gradcli_exe, "graph", "x * 2", "x=1", "--format", "svg",
                             "--output", str(tmp_path / "g.svg")], capture_output=True,
                            text=True, timeout=60, env=dict(os.environ, PATH=""))
    assert (result.returncode, result.stdout) == (2, "")
    for piece in ("`dot`", "apt install graphviz", "brew install graphviz", "--format mermaid",
                  "--format dot"):
        assert piece in result.stderr, result.stderr
    assert not (tmp_path / "g.svg").exists()


def test_graph_errors_exit_2(run_gradcli):
    result = run_gradcli(["graph", "sin(y)", "x=1"])
    assert result.returncode == 2 and "NameError: name 'y' is not defined" in result.stderr
    result = run_gradcli(["graph", "x * 2", "x=1", "--format", "svg"])
    assert (result.returncode, result.stderr) == (
        2, "gradcli graph: --format svg needs --output FILE\n")
    result = run_gradcli(["run", "--graph", "nothing", "-"], stdin="import torch\nprint(1)\n")
    assert (result.returncode, result.stdout) == (2, "1\n")
    assert "no tensor variable named 'nothing'" in result.stderr


def test_collapse_and_max_nodes(run_gradcli):
    loop = HERE / "loop.py"
    collapsed = graph_of(run_gradcli, loop, "h", "dot")
    assert "collapsed: 47 more repeats of" in collapsed
    full = run_gradcli(["run", "--graph", "h", "--no-collapse", "--max-nodes", "1000",
                        "--format", "dot", str(loop)])
    assert "collapsed" not in full.stdout
    assert full.stdout.count("TanhBackward0") == 50 > 5 > collapsed.count("TanhBackward0")
    result = run_gradcli(["run", "--graph", "h", "--no-collapse", "--max-nodes", "12",
                          "--format", "dot", str(loop)])
    nodes = re.findall(r"^\tn\d+ \[", result.stdout, re.M)
    assert len(nodes) <= 16 and "more nodes not shown" in result.stdout
    assert "(--max-nodes 12)" in result.stdout


def test_tree_format(run_gradcli):
    result = run_gradcli(["graph", "(w * x).sum()", "w=[1, 2]", "x=[3, 4]", "--backward",
                          "--format", "tree"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["(w", "*", "x).sum()", "[]", "float32"]
    for piece in ("SumBackward0", "MulBackward0", "AccumulateGrad  w [2] float32",
                  "tensor([3., 4.])"):
        assert piece in result.stdout


# ---- plot ---------------------------------------------------------------------------------------

def test_plot_on_a_terminal(gradcli_exe):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(gradcli_exe, ["plot", "sin(x)*x**2", "--range", "x=-3:3"],
                          env=dict(os.environ, TERM="xterm-256color"), encoding="utf-8",
                          timeout=60, dimensions=(30, 100))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;]*m", "", child.before).replace("\r\n", "\n")
    lines = text.splitlines()
    assert lines[0] == "f(x) = sin(x)*x**2   for x in [-3, 3]"
    assert lines[1] == "* f(x)   + f' (autograd)"
    body = [line for line in lines if " |" in line]
    assert len(body) == 18 and all("*" in line or "+" in line for line in body)
    assert any(line.split()[0] == "0" and "---" in line for line in body)
    assert lines[-1].split() == ["-3", "0", "3"]
    assert "\x1b[34m*" in child.before  # coloured on a terminal


def test_plot_expect_mismatch_exits_1(run_gradcli):
    result = run_gradcli(["plot", "sin(x)*x**2", "--range", "x=-3:3", "--width", "40",
                          "--expect", "x: cos(x)*x**2"])
    assert result.returncode == 1, result.stderr
    assert "X mismatch" in result.stdout and "X" in "".join(result.stdout.splitlines()[2:-1])
    assert "MISMATCH at" in result.stdout.splitlines()[-1]


def test_plot_expect_match_and_second_order(run_gradcli):
    result = run_gradcli(["plot", "sin(x)*x**2", "--range", "x=-3:3", "--order", "2",
                          "--expect", "x: cos(x)*x**2 + 2*x*sin(x)", "--width", "50"])
    assert result.returncode == 0, result.stderr
    assert "o f'' (autograd)" in result.stdout
    assert result.stdout.splitlines()[-1].endswith("matches autograd at all 50 points")


def test_plot_svg(run_gradcli, tmp_path):
    target = tmp_path / "f.svg"
    result = run_gradcli(["plot", "x**3", "--range", "x=-1:2", "--expect", "x: 3*x",
                          "--output", str(target)])
    assert result.returncode == 1
    root = ET.parse(target).getroot()
    assert root.tag == SVG + "svg"
    assert len(list(root.iter(SVG + "polyline"))) >= 3


def test_plot_usage_errors(run_gradcli):
    result = run_gradcli(["plot", "x**2", "--range", "x=3:1"])
    assert result.returncode == 2 and "LO < HI" in result.stderr
    result = run_gradcli(["plot", "x**2", "--range", "x=0:1", "--expect", "y: 2*x"])
    assert result.returncode == 2 and "not the plotted input" in result.stderr

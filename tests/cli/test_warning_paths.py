"""A script's warnings name it by its absolute path, as Python 3.9+ names its main script,
however the command line spelled it."""

import importlib.util
import subprocess
import sys


def _warning_places(stderr: str) -> list[str]:
    """The `file:line:` of each UserWarning in `stderr`, in order."""
    return [text.split(" UserWarning: ")[0] for text in stderr.splitlines()
            if " UserWarning: " in text]


def _same_places_in_python(script, places: list[str]) -> None:
    """Python with torch, when installed, names the same places."""
    if importlib.util.find_spec("torch") is not None:
        python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                                timeout=120)
        assert _warning_places(python.stderr) == places


def test_a_relative_script_is_named_by_its_absolute_path(run_gradcli, tmp_path, monkeypatch):
    script = tmp_path / "rel.py"
    script.write_text("import torch\nx = torch.tensor(1., requires_grad=True)\n"
                      "print((x * 2).grad)\n")
    monkeypatch.chdir(tmp_path)
    result = run_gradcli(["run", "rel.py"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(f"{script}:3: UserWarning: The .grad attribute")
    if importlib.util.find_spec("torch") is not None:
        python = subprocess.run([sys.executable, "rel.py"], capture_output=True, text=True,
                                timeout=120)
        assert python.stderr.split(" UserWarning: ")[0] == result.stderr.split(
            " UserWarning: ")[0]


def test_a_warning_after_a_call_names_the_callers_line(run_gradcli, tmp_path):
    """Once a function returns, its caller's line is the one running again (d2l's
    `float(loss(net(X), y).mean())`, where loss is a function of the program)."""
    script = tmp_path / "after_call.py"
    script.write_text("import torch\nx = torch.ones(1, requires_grad=True)\n"
                      "def loss(t):\n    return t * 2\n"
                      "print(float(loss(x)))\n")
    result = run_gradcli(["run", str(script)])
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(f"{script}:5: UserWarning: Converting a tensor")
    assert "  print(float(loss(x)))\n" in result.stderr
    if importlib.util.find_spec("torch") is not None:
        python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                                timeout=120)
        assert python.stderr.split(" UserWarning: ")[0] == result.stderr.split(
            " UserWarning: ")[0]


def test_a_warning_around_a_generator_names_the_running_line(run_gradcli, tmp_path):
    """After a generator yields, the consumer's line runs again; once resumed, the generator's
    own line (Python's frames, which gradcli keeps as one running line)."""
    script = tmp_path / "generators.py"
    script.write_text("import torch\nx = torch.ones(1, requires_grad=True)\n"
                      "def gen():\n    total = (x * (yield 1)).grad\n    yield total\n"
                      "g = gen()\n"
                      "print((x * next(g)).grad)\n"
                      "print(g.send(2))\n"
                      "print(next(gen()), (x * 3).grad)\n")
    result = run_gradcli(["run", str(script)])
    assert result.returncode == 0, result.stderr
    lines = _warning_places(result.stderr)
    assert lines == [f"{script}:{line}:" for line in (7, 4, 9)]
    _same_places_in_python(script, lines)


def test_a_warning_in_a_lambda_names_the_lambdas_line(run_gradcli, tmp_path):
    """A lambda's body runs on its own line, wherever it is called from; the caller's line
    runs again after it."""
    script = tmp_path / "lambdas.py"
    script.write_text("import torch\nx = torch.ones(1, requires_grad=True)\n"
                      "f = lambda t: (t * 2).grad\n"
                      "fs = [\n    lambda: (x * 3).grad,\n]\n"
                      "print(f(x), fs[0](), (x * f(x) if False else x * 4).grad)\n")
    result = run_gradcli(["run", str(script)])
    assert result.returncode == 0, result.stderr
    lines = _warning_places(result.stderr)
    assert lines == [f"{script}:{line}:" for line in (3, 5, 7)]
    _same_places_in_python(script, lines)


def test_a_filter_says_how_often_a_warning_is_shown(run_gradcli, tmp_path):
    """"always" shows a warning each time, "once" once for its text whatever the line, the
    default once per line, as Python's registries do; recorded ones are not shown."""
    script = tmp_path / "often.py"
    script.write_text("import warnings\nwarnings.simplefilter('always')\n"
                      "for i in range(2):\n    warnings.warn('loop')\n"
                      "warnings.simplefilter('once')\n"
                      "for i in range(2):\n    warnings.warn('again')\n"
                      "warnings.warn('again')\n"
                      "with warnings.catch_warnings(record=True) as caught:\n"
                      "    warnings.warn('kept')\n"
                      "print(len(caught), caught[0].lineno, caught[0].filename == __file__)\n")
    result = run_gradcli(["run", str(script)])
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1 10 True\n"
    assert [line.split(" UserWarning")[0] for line in result.stderr.splitlines()
            if "UserWarning" in line] == [f"{script}:{n}:" for n in (4, 4, 7)]
    if importlib.util.find_spec("torch") is not None:
        python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                                timeout=120)
        assert (python.stdout, python.stderr) == (result.stdout, result.stderr)

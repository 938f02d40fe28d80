"""Python's "Did you mean" after an uncaught NameError or AttributeError: the distance and
limits against CPython's own (its excepthook, in this process), and whole scripts run by
`gradcli run` and by this Python, their last lines compared."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from gradcli.language.suggestions import closest

# letters that differ in case or in one bit, digits and underscores: near misses are likely
_NAMES = st.text(alphabet="abcAB_1xyéZ", min_size=1, max_size=14)


def _pythons_suggestion(name: str, candidates: list) -> str | None:
    """What CPython's excepthook offers for `name` missing from globals named `candidates`."""
    scope = {"__builtins__": {}, **dict.fromkeys(candidates)}
    try:
        exec(compile(name, "<probe>", "eval"), scope)  # noqa: S102 - the oracle is CPython
    except NameError:
        kind, value, traceback = sys.exc_info()
    report = io.StringIO()
    with contextlib.redirect_stderr(report):
        sys.__excepthook__(kind, value, traceback)
    last = report.getvalue().rstrip("\n").rsplit("\n", 1)[-1]
    marker = ". Did you mean: '"
    return last[last.index(marker) + len(marker):-2] if marker in last else None


@settings(max_examples=300, deadline=None)
@given(_NAMES.filter(str.isidentifier),
       st.lists(_NAMES.filter(str.isidentifier), max_size=25))
def test_the_closest_name_is_cpythons(name, candidates):
    candidates = [c for c in candidates if c not in ("__builtins__", name)]
    assert closest(name, ["__builtins__", *candidates]) == _pythons_suggestion(name, candidates)


def test_no_guess_among_750_candidates_or_more():
    near = [f"name{i}" for i in range(749)]
    assert closest("name1x", near) == "name1"
    assert closest("name1x", [*near, "other"]) is None


def test_names_past_forty_characters_after_their_common_ends_are_never_matched():
    for length in (38, 39, 40, 41):
        name, other = "b" + "a" * length + "b", "c" + "a" * length + "c"
        assert closest(name, ["__builtins__", other]) == _pythons_suggestion(name, [other])
    assert closest("b" + "a" * 38 + "b", ["c" + "a" * 38 + "c"]) is not None
    assert closest("b" + "a" * 39 + "b", ["c" + "a" * 39 + "c"]) is None


SCRIPTS = {
    "a misspelt builtin": "values = [3, 1]\nprnt(values)\n",
    "a misspelt argument in a function": "def f(alpha, beta):\n    gamma = 1\n"
                                         "    return alphaa + beta\nf(1, 2)\n",
    "a global beside a builtin": "import math as mt\nprint(mat.pi)\n",
    "a free variable in a comprehension": "[x for x in range(3) if y]\n",
    "del of a missing name": "total = 1\ndel totl\n",
    "a str method": "'abc'.uper()\n",
    "a list method": "items = [1]\nitems.apend(2)\n",
    "a module function": "import math\nmath.sqr(2)\n",
    "an instance attribute": "class A:\n    def __init__(self):\n        self.value = 1\n"
                             "print(A().valeu)\n",
    "a class attribute": "class A:\n    limit = 3\nA.limt\n",
    "a program's __getattr__": "class A:\n    def __getattr__(self, name):\n"
                               "        raise AttributeError(name)\nA().zap\n",
    "getattr()": "class A:\n    size = 1\ngetattr(A(), 'sise')\n",
    "a numpy array": "import numpy as np\nnp.ones(3).shap\n",
    "None has nothing close": "x = None\nx.item()\n",
    "a __dir__ that fails": "class A:\n    def __dir__(self):\n        raise ValueError('no')\n"
                            "A().fo\n",
    "a __dir__ that cannot be sorted": "class A:\n    def __dir__(self):\n"
                                       "        return ['foo', 3]\nA().fo\n",
    "a program's __dir__": "class A:\n    def __dir__(self):\n        return ['fooo']\n"
                           "A().foo\n",
}

TORCH_SCRIPTS = {
    "a torch module's parameter": "import torch\nm = torch.nn.Linear(2, 3)\nprint(m.wieght)\n",
    "a container's method": "import torch\nm = torch.nn.Sequential(torch.nn.ReLU())\n"
                            "m.paramters()\n",
    "a program's module": "import torch\nfrom torch import nn\nclass Net(nn.Module):\n"
                          "    def __init__(self):\n        super().__init__()\n"
                          "        self.fc1 = nn.Linear(2, 2)\n"
                          "    def forward(self, x):\n        return self.fc(x)\n"
                          "Net()(torch.ones(2))\n",
    "torch's namespace lists too much": "import torch\ntorch.tenser\n",
    "a tensor lists too much": "import torch\ntorch.ones(2).szie()\n",
    "np for nn": "import torch\nfrom torch import nn\nnp.ones(2)\n",
}


def _last_lines(gradcli_exe, tmp_path, source: str) -> tuple[str, str]:
    script = tmp_path / "script.py"
    script.write_text(source, encoding="utf-8")
    python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=120)
    ours = subprocess.run([gradcli_exe, "run", str(script)], capture_output=True, text=True,
                          timeout=120)
    assert ours.returncode == python.returncode == 1
    return ours.stderr.splitlines()[-1], python.stderr.splitlines()[-1]


@pytest.mark.parametrize("source", SCRIPTS.values(), ids=SCRIPTS.keys())
def test_an_uncaught_error_offers_what_python_offers(gradcli_exe, tmp_path, source):
    ours, pythons = _last_lines(gradcli_exe, tmp_path, source)
    assert ours == pythons


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs real torch")
@pytest.mark.parametrize("source", TORCH_SCRIPTS.values(), ids=TORCH_SCRIPTS.keys())
def test_torch_objects_offer_what_python_offers(gradcli_exe, tmp_path, source):
    ours, pythons = _last_lines(gradcli_exe, tmp_path, source)
    assert ours == pythons

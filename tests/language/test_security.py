"""User text never reaches Python's own evaluation: no eval, exec, compile, __import__ or
importlib in the package, and getattr/setattr/delattr/hasattr only with constant names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "gradcli"
SOURCES = sorted(PACKAGE.rglob("*.py"))
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
NAME_TAKING = {"getattr", "setattr", "delattr", "hasattr"}
FORBIDDEN_MODULES = {"importlib", "runpy", "code", "codeop", "pickle", "marshal", "ctypes"}


def findings(source: str, filename: str) -> list[str]:
    """What in one source text could run, or reach, code named by user text."""
    tree = ast.parse(source, filename)
    called = {id(node.func) for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    found = []
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in FORBIDDEN_CALLS:
                found.append(f"{where}: call to {name}()")
            elif name in NAME_TAKING and not (
                    len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                found.append(f"{where}: {name}() with a name that is not a constant")
        elif isinstance(node, ast.Name) and id(node) not in called and \
                node.id in FORBIDDEN_CALLS | NAME_TAKING:
            found.append(f"{where}: reference to {node.id}, which could be called later")
        elif isinstance(node, ast.Import):
            found.extend(f"{where}: import {alias.name}" for alias in node.names
                         if alias.name.split(".")[0] in FORBIDDEN_MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module and \
                node.module.split(".")[0] in FORBIDDEN_MODULES:
            found.append(f"{where}: from {node.module} import ...")
    return found


def test_package_sources_are_found():
    assert len(SOURCES) > 10


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(PACKAGE)) for p in SOURCES])
def test_no_dynamic_evaluation(path):
    assert findings(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))) == []


def test_the_scan_catches_what_it_forbids():
    source = ("import importlib\nfrom importlib import util\nname = input()\neval(name)\n"
              "getattr(obj, name)\nsetattr(obj, 'fixed', 1)\nf = exec\n__import__(name)\n")
    found = "\n".join(findings(source, "bad.py"))
    for expected in ("import importlib", "from importlib import", "call to eval()",
                     "getattr() with a name", "reference to exec", "call to __import__()"):
        assert expected in found
    assert "setattr" not in found

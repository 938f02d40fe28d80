"""The layers import only downwards: engine <- language <- cli, and heavy UI libraries stay in cli."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "gradcli"
GENERATED = PACKAGE / "language" / "syntax" / "lark_standalone.py"
FORBIDDEN = {
    "engine": {"gradcli.language", "gradcli.cli", "lark", "typer", "rich", "prompt_toolkit"},
    "language": {"gradcli.cli", "typer", "rich", "prompt_toolkit"},
}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_down(layer):
    offenders = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        if path == GENERATED:  # lark's runtime: its Tree.pretty draws with rich when asked
            continue
        for name in imported_modules(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_package_root_holds_the_version_only():
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    assigned = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets]
    assert assigned == ["__version__"]


# ---- import cycles -------------------------------------------------------------------------------
# Module-level and function-level imports both count. Neither layer has one: the engine's areas
# reach each other through the late-bound namespace F (engine/functions.py); in the language the
# compiler and the runtime read the namespaces' tables (builtins, modules, Tensor attributes)
# through runtime/protocols.py, and each namespace imports only the runtime and the tables
# beneath it.


def import_graph(layer: str) -> dict[str, set[str]]:
    """module (relative to the layer) -> the layer's modules it imports, at any depth."""
    root = PACKAGE / layer
    prefix = f"gradcli.{layer}."
    modules = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
               for p in root.rglob("*.py")}
    graph = {}
    for path in root.rglob("*.py"):
        name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                    prefix.rstrip(".")):
                base = node.module.removeprefix(prefix)
                for alias in node.names:
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    if target in modules and target != name:
                        edges.add(target)
        graph[name] = edges
    return graph


def modules_in_cycles(graph: dict[str, set[str]]) -> set[str]:
    """Every module on some cycle (Tarjan's strongly connected components, iteratively)."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), set(), [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.update(component)
    return result


@pytest.mark.parametrize("layer", ["engine", "language"])
def test_no_import_cycle(layer):
    assert modules_in_cycles(import_graph(layer)) == set()


def test_the_cycle_check_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert modules_in_cycles(graph) == {"a", "b", "c"}

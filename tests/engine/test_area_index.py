"""gradcli/engine/ops/area_index.py says which area defines each function, row and declaration,
as importing the areas one by one in a fresh process shows; run this file to rewrite it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

INDEX_FILE = Path(__file__).resolve().parents[2] / "gradcli" / "engine" / "ops" / "area_index.py"
MARKER = "INDEX = "


def recorded_index() -> dict:
    """area -> kind -> sorted keys, from importing every area in load order (fresh process)."""
    from gradcli.engine import functions
    from gradcli.engine import ops
    from gradcli.engine.declarations import DECLARATIONS
    from gradcli.engine.ops.registry import OPS
    functions.LOADER = None  # an area that needs another at import time fails here
    tables = {"function": vars(functions.F), "row": OPS, "declaration": DECLARATIONS}
    index, owner = {}, {}
    for kind, table in tables.items():  # what importing these tables' own module brought
        for key in table:
            owner[kind, key] = ops.AREAS[0]
            index.setdefault(ops.AREAS[0], {}).setdefault(kind, []).append(_text(key))

    def record(area: str, step) -> None:
        before = {kind: {k: id(v) for k, v in table.items()} for kind, table in tables.items()}
        step()
        for kind, table in tables.items():
            for key, value in table.items():
                if before[kind].get(key) == id(value):
                    continue
                text = _text(key)
                if key in before[kind]:  # the value a lazy load would see depends on order
                    raise AssertionError(f"{kind} {key!r} of {owner[kind, key]} is redefined "
                                         f"by {area}")
                owner[kind, key] = area
                index.setdefault(area, {}).setdefault(kind, []).append(text)

    for area in ops.AREAS[1:]:
        record(area, lambda: ops._import(area))
    from gradcli.engine.ops import inplace
    record(ops.WRITTEN_BACK, inplace.declare_written_back)
    return {area: {kind: sorted(keys) for kind, keys in kinds.items()}
            for area, kinds in index.items()}


def _text(key) -> str:
    text = ":".join(key) if isinstance(key, tuple) else key
    assert " " not in text and text.count(":") <= 1, text
    return text


def index_text(index: dict) -> str:
    lines = [MARKER + "{"]
    for area, kinds in index.items():
        lines.append(f"    {json.dumps(area)}: {{")
        for kind, keys in kinds.items():
            wrapped = textwrap.wrap(" ".join(keys), 84, break_on_hyphens=False)
            lines.append(f"        {json.dumps(kind)}: (")
            lines += [f"            {json.dumps(chunk + ' ')}" for chunk in wrapped]
            lines.append("        ),")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _current_text() -> str:
    return subprocess.run([sys.executable, __file__, "--print"], check=True, text=True,
                          capture_output=True).stdout


def test_area_index_is_current():
    text = INDEX_FILE.read_text(encoding="utf-8")
    recorded = text[text.index("\n" + MARKER) + 1:]
    assert recorded == _current_text(), (
        "gradcli/engine/ops/area_index.py is out of date: run python tests/engine/"
        "test_area_index.py")


# Names from areas not loaded yet: written-back in-place methods, nn.functional, linalg, sorting.
PROGRAM = """x = torch.tensor([1., -2., 3.], requires_grad=True)
y = x.clone()
y.add_(1)
print(torch.nn.functional.relu(y), torch.linalg.norm(y), torch.sort(y), torch.sinc(y))
print(y.cumsum_(0), torch.addcdiv(x, y, x + 4, value=2), x.logaddexp(y).sum())
"""
RUN = ("import sys; from gradcli.language.session import Session; "
       "Session(write=sys.stdout.write).run(sys.stdin.read())")


def test_a_program_runs_the_same_with_areas_loaded_on_first_use():
    import io
    from gradcli.language.session import Session
    everything_loaded = io.StringIO()  # conftest loaded every area
    assert Session(write=everything_loaded.write).run(PROGRAM).error is None
    lazily = subprocess.run([sys.executable, "-c", RUN], input=PROGRAM, check=True, text=True,
                            capture_output=True).stdout
    assert lazily == everything_loaded.getvalue()


if __name__ == "__main__":
    generated = index_text(recorded_index())
    if sys.argv[1:] == ["--print"]:
        sys.stdout.write(generated)
    else:
        text = INDEX_FILE.read_text(encoding="utf-8")
        INDEX_FILE.write_text(text[:text.index("\n" + MARKER) + 1] + generated, encoding="utf-8")

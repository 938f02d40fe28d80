"""A Graph as Graphviz DOT text in torchviz's style, and SVG/PNG drawn by the `dot` program.

Colours as torchviz: leaves lightblue, ops lightgrey, saved tensors orange, the output and
retained tensors darkolivegreen1; collapsed and cut-off parts are white and dashed.
"""

from __future__ import annotations

import shutil
import subprocess

from gradcli.cli.graphs.walk import Graph

FILL = {"leaf": "lightblue", "op": "lightgrey", "saved": "orange", "output": "darkolivegreen1",
        "retained": "darkolivegreen1", "collapsed": "white", "cut": "white"}
EDGE_ATTRIBUTES = {"flow": "", "saved": " [dir=none style=dashed]",
                   "retained": " [style=dotted]"}
DRAWN_FORMATS = ("svg", "png")
INSTALL_HINT = ("install Graphviz (`apt install graphviz` on Debian/Ubuntu, `brew install "
                "graphviz` on macOS), or use --format mermaid or --format dot (text, no tool "
                "needed)")


class MissingDot(Exception):
    """Graphviz's `dot` is not on PATH."""


class DotFailed(Exception):
    """`dot` ran and failed."""


def quote(text: str) -> str:
    """A DOT double-quoted string (lines joined by DOT's \\n escape)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(graph: Graph) -> str:
    lines = ["digraph {",
             '\tgraph [size="12,12"]',
             "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 "
             "shape=box style=filled]"]
    for item in graph.items:
        style = ' style="filled,dashed"' if item.kind in ("collapsed", "cut") else ""
        lines.append(f"\t{item.key} [label={quote(chr(10).join(item.lines))} "
                     f"fillcolor={FILL[item.kind]}{style}]")
    for edge in graph.edges:
        lines.append(f"\t{edge.source} -> {edge.target}{EDGE_ATTRIBUTES[edge.kind]}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_program() -> str | None:
    return shutil.which("dot")


def draw(dot_text: str, fmt: str, output: str) -> None:
    """Run `dot -T<fmt> -o OUTPUT` on the DOT text (no shell); MissingDot or DotFailed."""
    program = dot_program()
    if program is None:
        raise MissingDot(f"--format {fmt} needs Graphviz's `dot` program, which is not on "
                         f"PATH: {INSTALL_HINT}")
    try:
        done = subprocess.run([program, f"-T{fmt}", "-o", output], input=dot_text.encode(),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise DotFailed(f"running {program} failed: {error}") from None
    if done.returncode != 0:
        raise DotFailed(f"{program} failed: {done.stderr.decode(errors='replace').strip()}")

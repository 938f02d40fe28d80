"""A Graph as a Mermaid `flowchart` (GitHub and most Markdown viewers draw it with no tool).

Node ids are the walk's n0, n1, ... (never a Mermaid keyword); labels are double-quoted with
every character Mermaid could read as syntax written as an entity code (#quot;, #lt;, #gt;,
#91; ...), and lines joined by <br/>.
"""

from __future__ import annotations

from gradcli.cli.graphs.walk import Graph

ENTITIES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "[": "#91;", "]": "#93;",
            "{": "#123;", "}": "#125;", "|": "#124;", "`": "#96;", "&": "#38;"}
_TABLE = str.maketrans(ENTITIES)
CLASSES = {"output": "fill:#caff70,stroke:#556b2f", "retained": "fill:#caff70,stroke:#556b2f",
           "op": "fill:#d3d3d3,stroke:#696969", "leaf": "fill:#add8e6,stroke:#4682b4",
           "saved": "fill:#ffa500,stroke:#b8860b",
           "collapsed": "fill:#ffffff,stroke:#696969,stroke-dasharray:4 3",
           "cut": "fill:#ffffff,stroke:#696969,stroke-dasharray:4 3"}
ARROWS = {"flow": "-->", "saved": "-.-", "retained": "-.->"}


def escape(text: str) -> str:
    return text.translate(_TABLE)


def label(lines: list[str]) -> str:
    return '"' + "<br/>".join(escape(line) for line in lines) + '"'


def to_mermaid(graph: Graph) -> str:
    lines = ["flowchart BT"]
    for item in graph.items:
        lines.append(f"    {item.key}[{label(item.lines)}]")
    for edge in graph.edges:
        lines.append(f"    {edge.source} {ARROWS[edge.kind]} {edge.target}")
    used = dict.fromkeys(item.kind for item in graph.items)
    for kind in used:
        lines.append(f"    classDef {kind} {CLASSES[kind]}")
    for kind in used:
        keys = ",".join(item.key for item in graph.items if item.kind == kind)
        lines.append(f"    class {keys} {kind}")
    return "\n".join(lines) + "\n"

"""A tensor's backward graph as plain items and edges, ready to be drawn in any format.

Items are numbered in breadth-first order from the output (n0, n1, ...), so a drawing depends
only on the graph, never on memory addresses. Edges run the way values flow in the forward pass
(input -> op -> output), as torchviz draws them. Repeated chains (a loop of many steps) are
collapsed: the first and the last repetition are kept, the ones between become one `collapsed`
item saying how many there were; past `max_nodes` items the rest is one `cut` item.
"""

from __future__ import annotations

from collections import deque
from gradcli.engine.records import field, record
from typing import Callable

from gradcli.engine.autograd import AccumulateGrad, Node
from gradcli.engine.tensor import Tensor

DEFAULT_MAX_NODES = 200
MIN_REPEATS = 3  # a block must repeat this many times in a chain to be collapsed
MAX_PERIOD = 12  # the longest block of nodes looked for
SMALL_VALUES = 6  # values (of .grad) are shown when a tensor has at most this many elements


@record
class Item:
    """One node of the drawing. kind: output, retained, op, leaf, saved, collapsed or cut."""

    key: str
    kind: str
    lines: list[str]


@record(frozen=True)
class Edge:
    """From `source` to `target`; kind: flow (a gradient edge), saved or retained."""

    source: str
    target: str
    kind: str = "flow"


@record
class Graph:
    items: list[Item] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def add(self, kind: str, lines: list[str]) -> Item:
        item = Item(f"n{len(self.items)}", kind, lines)
        self.items.append(item)
        return item

    def link(self, source: Item, target: Item, kind: str = "flow") -> None:
        self.edges.append(Edge(source.key, target.key, kind))


def shape_text(shape, dtype) -> str:
    return f"[{', '.join(str(s) for s in shape)}] {dtype.name}"


def grad_line(tensor: Tensor, printer) -> str:
    """`.grad = None`, the gradient's values when small, or its shape."""
    grad = tensor.grad
    if grad is None:
        return ".grad = None"
    if printer is not None and grad.numel() <= SMALL_VALUES:
        text = " ".join(line.strip() for line in printer.repr(grad).splitlines())
        return f".grad = {text}"
    return f".grad = {shape_text(grad.shape, grad.dtype)}"


class Walker:
    """Builds the Graph of one tensor; `name_of(tensor)` names tensors (None if unnamed)."""

    def __init__(self, name_of: Callable[[Tensor], str | None], printer=None, *,
                 max_nodes: int = DEFAULT_MAX_NODES, collapse: bool = True):
        self.name_of, self.printer = name_of, printer
        self.max_nodes, self.collapse = max_nodes, collapse
        self.graph = Graph()
        self.items: dict[int, Item] = {}  # id(node) -> its item
        self.leaves: dict[int, Item] = {}  # id(leaf tensor) -> its item
        self.cut: Item | None = None
        self.hidden = 0

    def tensor_lines(self, tensor: Tensor, name: str | None, grad: bool) -> list[str]:
        lines = [name or "tensor", shape_text(tensor.shape, tensor.dtype)]
        if grad:
            lines.append(grad_line(tensor, self.printer))
        return lines

    def build(self, tensor: Tensor, name: str) -> Graph:
        graph = self.graph
        root = tensor.grad_fn
        if root is None:
            kind = "leaf" if tensor.requires_grad else "output"
            lines = self.tensor_lines(tensor, name, tensor.requires_grad)
            if not tensor.requires_grad:
                lines.append("does not require grad: no backward graph")
            graph.add(kind, lines)
            return graph
        output = graph.add("output", self.tensor_lines(tensor, name, tensor.retains_grad))
        skips = self.collapsed_runs(root) if self.collapse else {}
        queue = deque([root])
        graph.link(self.node_item(root, tensor), output)
        while queue:
            node = queue.popleft()
            item = self.items[id(node)]
            skip = skips.get(id(node))
            for child, _ in node.next_edges:
                if child is None:
                    continue
                if skip is not None and child is skip[0]:
                    marker = graph.add("collapsed", skip[2])
                    graph.link(marker, item)
                    child, item_after = skip[1], marker
                else:
                    item_after = item
                known = self.items.get(id(child))
                if known is None:
                    if len(graph.items) >= self.max_nodes:
                        if self.cut is None:
                            self.cut = graph.add("cut", [])
                        graph.link(self.cut, item_after)
                        continue
                    known = self.node_item(child, tensor)
                    queue.append(child)
                graph.link(known, item_after)
        if self.cut is not None:
            counted = self.count_nodes(root)
            self.cut.lines = [f"... {counted - len(self.items)} more nodes not shown",
                              f"(--max-nodes {self.max_nodes})"]
        return graph

    def node_item(self, node, output: Tensor) -> Item:
        """The item of an op (with its saved and retained tensors) or an AccumulateGrad (with
        its leaf)."""
        graph = self.graph
        if isinstance(node, AccumulateGrad):
            item = graph.add("op", ["AccumulateGrad"])
            leaf = node.variable
            leaf_item = self.leaves.get(id(leaf))
            if leaf_item is None:
                leaf_item = graph.add("leaf", self.tensor_lines(leaf, self.name_of(leaf), True))
                self.leaves[id(leaf)] = leaf_item
            graph.link(leaf_item, item)
            self.items[id(node)] = item
            return item
        lines = [node.name()]
        if getattr(node, "freed", False) and getattr(node, "saves_anything", False):
            lines.append("(saved tensors freed by backward)")
        item = graph.add("op", lines)
        self.items[id(node)] = item
        for index, arg in enumerate(getattr(node, "saved_args", ()) or ()):
            if isinstance(arg, Tensor):
                saved = graph.add("saved", [f"saved input {index}: {self.name_of(arg) or 'tensor'}",
                                            shape_text(arg.shape, arg.dtype)])
                graph.link(saved, item, "saved")
        result = getattr(node, "saved_result", None)
        for tensor in (result if isinstance(result, tuple) else (result,)):
            if tensor is not None:
                saved = graph.add("saved", ["saved result", shape_text(tensor.shape,
                                                                       tensor.dtype)])
                graph.link(saved, item, "saved")
        for number, ref in sorted((getattr(node, "retained", None) or {}).items()):
            kept = ref()
            if kept is not None and kept is not output:
                retained = graph.add("retained", ["retained " + (self.name_of(kept) or "tensor"),
                                                  shape_text(kept.shape, kept.dtype),
                                                  grad_line(kept, self.printer)])
                graph.link(item, retained, "retained")
        return item

    # ---- collapsing repeated chains -------------------------------------------------------------

    @staticmethod
    def reachable(root) -> list:
        seen, order, stack = {id(root)}, [], [root]
        while stack:
            node = stack.pop()
            order.append(node)
            for child, _ in node.next_edges:
                if child is not None and id(child) not in seen:
                    seen.add(id(child))
                    stack.append(child)
        return order

    def count_nodes(self, root) -> int:
        return len(self.reachable(root))

    def signature(self, node) -> tuple:
        parts = [node.name()]
        for child, _ in node.next_edges:
            if child is None:
                parts.append("-")
            elif isinstance(child, AccumulateGrad):
                leaf = child.variable
                parts.append(("leaf", self.name_of(leaf) or shape_text(leaf.shape, leaf.dtype)))
            else:
                parts.append("op")
        return tuple(parts)

    def collapsed_runs(self, root) -> dict:
        """id(node) -> (its chain child, the node to continue from, the collapsed item's lines)
        for each node ending the first repetition of a collapsed block."""
        nodes = [n for n in self.reachable(root) if isinstance(n, Node)]
        parents: dict[int, int] = {}
        for node in nodes:
            for child in {id(c) for c, _ in node.next_edges if isinstance(c, Node)}:
                parents[child] = parents.get(child, 0) + 1
        link = {}
        for node in nodes:
            children = {id(c): c for c, _ in node.next_edges if isinstance(c, Node)}
            if len(children) == 1:
                child = next(iter(children.values()))
                if parents[id(child)] == 1:
                    link[id(node)] = child
        linked = {id(c) for c in link.values()}
        skips = {}
        for head in nodes:
            if id(head) in linked or id(head) not in link:
                continue
            chain = [head]
            while id(chain[-1]) in link:
                chain.append(link[id(chain[-1])])
            signatures = [self.signature(n) for n in chain]
            for start, period, count in repeated_blocks(signatures):
                first_end = chain[start + period - 1]
                resume = chain[start + period * (count - 1)]
                between = count - 2
                names = ", ".join(n.name() for n in chain[start:start + period])
                self.hidden += between * period
                skips[id(first_end)] = (chain[start + period], resume, [
                    f"collapsed: {between:,} more repeats of",
                    f"[{names}]",
                    f"({count:,} in all, {between * period:,} nodes hidden)"])
        return skips


def repeated_blocks(signatures: list) -> list[tuple[int, int, int]]:
    """(start, period, count) of each block repeated MIN_REPEATS times or more in a row,
    greedily from the start, preferring the run covering most nodes (then the shortest block)."""
    runs, i, size = [], 0, len(signatures)
    while i < size:
        best = None
        for period in range(1, MAX_PERIOD + 1):
            if i + period * MIN_REPEATS > size:
                break
            block = signatures[i:i + period]
            count = 1
            while signatures[i + count * period:i + (count + 1) * period] == block:
                count += 1
            if count >= MIN_REPEATS and (best is None or count * period > best[0] * best[1]):
                best = (count, period)
        if best is None:
            i += 1
        else:
            runs.append((i, best[1], best[0]))
            i += best[0] * best[1]
    return runs


def names_from(variables: dict) -> Callable[[Tensor], str | None]:
    """Names tensors after the variables holding them (or holding a tensor of the same data)."""
    tensors = [(n, v) for n, v in variables.items() if isinstance(v, Tensor)]
    by_id = {id(v): n for n, v in tensors}
    by_data = {id(v.data): n for n, v in tensors}

    def name_of(tensor: Tensor) -> str | None:
        return by_id.get(id(tensor)) or by_data.get(id(tensor.data))
    return name_of


def build(tensor: Tensor, name: str, variables: dict, printer=None, *,
          max_nodes: int = DEFAULT_MAX_NODES, collapse: bool = True) -> Graph:
    return Walker(names_from(variables), printer, max_nodes=max_nodes,
                  collapse=collapse).build(tensor, name)

"""The backward graph of a tensor as a rich tree: labels, shapes, saved tensors, leaves, .grad."""

from __future__ import annotations

from gradcli.engine.autograd import AccumulateGrad
from gradcli.engine.tensor import Tensor

from gradcli.cli.graphs.walk import DEFAULT_MAX_NODES


def _shape(shape, dtype) -> str:
    return f"[{', '.join(str(s) for s in shape)}] {dtype.name}"


class GraphView:
    """Builds the tree for one tensor, naming tensors after the session's variables."""

    def __init__(self, variables: dict, printer, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.max_nodes = max_nodes
        tensors = [(n, v) for n, v in variables.items() if isinstance(v, Tensor)]
        self.by_id = {id(v): n for n, v in tensors}
        self.by_data = {id(v.data): n for n, v in tensors}
        self.printer = printer

    def name_of(self, tensor: Tensor) -> str | None:
        return self.by_id.get(id(tensor)) or self.by_data.get(id(tensor.data))

    def tree(self, name: str, tensor: Tensor):
        """The rich Tree rooted at `name`'s grad_fn (or a one-line tree for a leaf)."""
        from rich.text import Text
        from rich.tree import Tree
        title = Text(f"{name}  ", style="bold")
        title.append(_shape(tensor.shape, tensor.dtype), style="cyan")
        if tensor.grad_fn is None:
            title.append(self.grad_text(tensor) if tensor.requires_grad else
                         "  does not require grad: no backward graph", style="dim")
            return Tree(title)
        root = Tree(title)
        pending = [(root.add(self.node_text(tensor.grad_fn)), tensor.grad_fn)]
        seen = {id(tensor.grad_fn)}
        shown = 1
        while pending:
            branch, node = pending.pop()
            for child, _ in node.next_edges:
                if child is None:
                    branch.add(Text("None  (input does not require grad)", style="dim"))
                elif isinstance(child, AccumulateGrad):
                    branch.add(self.accumulate_text(child))
                elif id(child) in seen:
                    branch.add(Text(f"{child.name()}  (shown above)", style="dim"))
                elif shown >= self.max_nodes:
                    branch.add(Text(f"... (more than {self.max_nodes} nodes: --max-nodes)",
                                    style="dim"))
                    return root
                else:
                    seen.add(id(child))
                    shown += 1
                    pending.append((branch.add(self.node_text(child)), child))
        return root

    def node_text(self, node):
        from rich.text import Text
        text = Text(node.name(), style="bold magenta")
        outputs = ", ".join(_shape(s, d) for s, d in getattr(node, "output_meta", ()))
        text.append(f"  -> {outputs}", style="cyan")
        params = ", ".join(f"{k}={v!r}" for k, v in node.params.items() if v is not None)
        if params:
            text.append("  " + params, style="dim")
        saved = self.saved_lines(node)
        if saved:
            text.append("\nsaved: " + "; ".join(saved), style="yellow")
        return text

    def saved_lines(self, node) -> list[str]:
        if getattr(node, "freed", False):
            return ["freed by backward() (pass retain_graph=True to keep it)"]
        lines = []
        for index, arg in enumerate(getattr(node, "saved_args", ())):
            if isinstance(arg, Tensor):
                label = self.name_of(arg) or "tensor"
                lines.append(f"input {index} {label} {_shape(arg.shape, arg.dtype)}")
            elif arg is not None:
                lines.append(f"input {index} = {arg!r}")
        result = getattr(node, "saved_result", None)
        if result is not None:
            lines.append(f"result {_shape(result.shape, result.dtype)}")
        return lines

    def accumulate_text(self, node: AccumulateGrad):
        from rich.text import Text
        leaf = node.variable
        text = Text("AccumulateGrad", style="bold green")
        text.append(f"  {self.name_of(leaf) or 'leaf'} ", style="bold")
        text.append(_shape(leaf.shape, leaf.dtype), style="cyan")
        text.append(self.grad_text(leaf), style="green")
        return text

    def grad_text(self, leaf: Tensor) -> str:
        """`.grad = None`, or `.grad =` with the gradient on the lines below, as torch prints it."""
        if leaf.grad is None:
            return "  .grad = None"
        return "  .grad =\n" + self.printer.tensor(leaf.grad)

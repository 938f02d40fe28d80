"""Backward graph nodes and the iterative backward pass (dependency counts, then a ready queue)."""

from __future__ import annotations

import heapq
import itertools
import weakref

from gradcli.engine import errors
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor

_sequence = itertools.count()


class Node:
    """A grad_fn: the op that made a tensor, its edges to the inputs' nodes, and what it saved."""

    __slots__ = ("op", "next_edges", "params", "sequence_nr", "saved_args", "saved_result",
                 "saved_versions", "saves_anything", "freed", "input_meta", "output_meta",
                 "retained", "__weakref__")

    def __init__(self, op, next_edges: tuple, params: dict):
        self.op = op
        self.next_edges = next_edges
        self.params = params
        self.sequence_nr = next(_sequence)
        self.freed = False
        self.retained: dict[int, weakref.ref] = {}

    def name(self) -> str:
        return self.op.label

    @property
    def next_functions(self) -> tuple:
        return self.next_edges

    def save(self, args: tuple, outputs: tuple) -> None:
        """Keep what the vjps of inputs that require grad read, and the versions of saved tensors."""
        save = self.op.saved_for(args)
        self.saves_anything = bool(save)
        self.saved_args = tuple(
            a if (i in save or not isinstance(a, Tensor)) else None for i, a in enumerate(args))
        self.saved_result = None
        if "result" in save:
            out = outputs[0]
            self.saved_result = Tensor(out.data, out.dtype)
            self.saved_result._version_counter = out._version_counter
        saved = [a for i, a in enumerate(args) if i in save and isinstance(a, Tensor)]
        if self.saved_result is not None:
            saved.append(self.saved_result)
        self.saved_versions = tuple((t, t._version) for t in saved)
        self.input_meta = tuple(
            (a.shape, a.dtype) if isinstance(a, Tensor) else None for a in args)
        self.output_meta = tuple((o.shape, o.dtype) for o in outputs)

    def unpack(self) -> tuple[tuple, Tensor | None]:
        """The saved inputs and result, checked against frees and in-place changes."""
        if self.freed:
            raise errors.runtime(errors.BACKWARD_TWICE)
        for tensor, version in self.saved_versions:
            if tensor._version != version:
                raise errors.runtime(_modified_message(tensor, version, self))
        out = self.saved_result
        if out is not None:
            out = Tensor(out.data, out.dtype, grad_fn=self if STATE.grad_enabled else None)
        return self.saved_args, out

    def release(self) -> None:
        if self.saves_anything:
            self.freed = True
            self.saved_args = tuple(None if isinstance(a, Tensor) else a for a in self.saved_args)
            self.saved_result = None


class AccumulateGrad:
    """The node that adds an incoming gradient into a leaf's `.grad`."""

    __slots__ = ("variable", "sequence_nr", "__weakref__")
    next_edges = ()
    next_functions = ()

    def __init__(self, variable: Tensor):
        self.variable = variable
        self.sequence_nr = -1

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"


def gradient_edge(tensor: Tensor) -> tuple:
    """The (node, output_nr) a gradient for `tensor` flows into."""
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor.output_nr)
    if tensor._accumulator is None:
        tensor._accumulator = AccumulateGrad(tensor)
    return (tensor._accumulator, 0)


def _modified_message(tensor: Tensor, version: int, node: Node) -> str:
    shape = ", ".join(str(s) for s in tensor.shape)
    where = ""
    source = tensor._base if tensor._base is not None and tensor.grad_fn is None else tensor
    if node.saved_result is tensor:
        where = f", which is output 0 of {_short_name(node.name())},"
    elif source.grad_fn is not None:
        where = f", which is output {source.output_nr} of {_short_name(source.grad_fn.name())},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{tensor.dtype.legacy_name} [{shape}]]{where} is at version "
        f"{tensor._version}; expected version {version} instead. Hint: enable anomaly detection to "
        "find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _short_name(label: str) -> str:
    return label.rstrip("0123456789").removesuffix("Backward")


def run_backward(roots: list[Tensor], grads: list, *, retain_graph: bool, create_graph: bool,
                 inputs: list[Tensor] | None = None, accumulate: bool = True) -> list:
    """Backpropagate `grads` from `roots`. With `accumulate`, add into leaves' (or `inputs`') .grad;
    otherwise return the gradients of `inputs` (None where unreachable), as autograd.grad does."""
    from gradcli.engine import functional as F

    root_edges = []
    for i, (root, grad) in enumerate(zip(roots, grads)):
        if not root.requires_grad:
            raise errors.runtime(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append((gradient_edge(root), grad))
    targets = {}
    for i, tensor in enumerate(inputs or ()):
        targets[_edge_key(gradient_edge(tensor))] = i
    order, dependencies = _discover([edge[0] for edge, _ in root_edges])
    needed = _needed_nodes(order, targets) if inputs is not None else None
    captured: list = [None] * len(inputs or ())
    buffers: dict = {}
    for (node, nr), grad in root_edges:
        _add_to_buffer(buffers, node, nr, grad, F)
    ready = [(-n.sequence_nr, id(n), n) for n in {id(e[0]): e[0] for e, _ in root_edges}.values()
             if dependencies.get(n, 0) == 0]
    heapq.heapify(ready)
    with grad_mode(create_graph):
        while ready:
            _, _, node = heapq.heappop(ready)
            node_grads = buffers.pop(node, None)
            if needed is None or node in needed:
                _execute(node, node_grads, buffers, targets, captured, accumulate, create_graph,
                         retain_graph, needed, inputs, F)
            for next_node, _ in node.next_edges:
                if next_node is None:
                    continue
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    heapq.heappush(ready, (-next_node.sequence_nr, id(next_node), next_node))
    return captured


def _edge_key(edge: tuple) -> tuple:
    return (id(edge[0]), edge[1])


def _discover(starts: list) -> tuple[list, dict]:
    """Post-order of the graph below `starts` (inputs before users) and each node's in-degree."""
    dependencies: dict = {}
    order: list = []
    seen = set()
    stack = [(node, False) for node in starts]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        dependencies.setdefault(node, 0)
        stack.append((node, True))
        for child, _ in node.next_edges:
            if child is not None:
                dependencies[child] = dependencies.get(child, 0) + 1
                if id(child) not in seen:
                    stack.append((child, False))
    return order, dependencies


def _needed_nodes(order: list, targets: dict) -> set:
    """Nodes from which some target is reachable: only these run when `inputs` is given."""
    target_nodes = {key[0] for key in targets}
    needed = set()
    for node in order:
        if id(node) in target_nodes or any(c in needed for c, _ in node.next_edges if c is not None):
            needed.add(node)
    return needed


def _add_to_buffer(buffers: dict, node, nr: int, grad: Tensor, F) -> None:
    slots = buffers.get(node)
    if slots is None:
        width = len(node.output_meta) if isinstance(node, Node) else 1
        slots = buffers[node] = [None] * width
    slots[nr] = grad if slots[nr] is None else F.add(slots[nr], grad)


def _execute(node, node_grads, buffers, targets, captured, accumulate, create_graph,
             retain_graph, needed, inputs, F) -> None:
    if node_grads is None:
        return
    for nr, grad in enumerate(node_grads):
        key = (id(node), nr)
        if grad is not None and key in targets:
            if accumulate:
                _accumulate(inputs[targets[key]], grad, create_graph, F)
            else:
                captured[targets[key]] = grad
    if isinstance(node, AccumulateGrad):
        if accumulate and targets == {}:
            _accumulate(node.variable, node_grads[0], create_graph, F)
        return
    for nr, ref in node.retained.items():
        tensor = ref()
        if tensor is not None and node_grads[nr] is not None and (accumulate and not targets):
            _accumulate(tensor, node_grads[nr], create_graph, F)
    grads = [g if g is not None else F.zeros_of(*node.output_meta[nr])
             for nr, g in enumerate(node_grads)]
    saved_args, out = node.unpack()
    extra = {"out": out} if "result" in node.op.save else {}
    for i, (next_node, nr) in zip(node.op.edge_slots, node.next_edges):
        if next_node is None or (needed is not None and next_node not in needed):
            continue
        g = grads[0] if node.op.n_outputs == 1 else grads
        grad = node.op.vjp[i](g, *saved_args, **node.params, **extra)
        if grad is None:
            continue
        shape, dtype = node.input_meta[i]
        grad = F.sum_to(grad, shape)
        if grad.dtype is not dtype:
            grad = F.to_dtype(grad, dtype)
        _add_to_buffer(buffers, next_node, nr, grad, F)
    if not retain_graph:
        node.release()


def _accumulate(tensor: Tensor, grad: Tensor, create_graph: bool, F) -> None:
    """Add `grad` into `tensor.grad`: in place normally, out of place when building a graph."""
    if not create_graph:
        grad = Tensor(grad.data, grad.dtype)
    if tensor.grad is None:
        tensor.grad = grad if create_graph else Tensor(grad.data.copy(), grad.dtype)
    elif create_graph or STATE.grad_enabled and tensor.grad.requires_grad:
        tensor.grad = F.add(tensor.grad, grad)
    else:
        tensor.grad.data += grad.data
        tensor.grad.bump_version()

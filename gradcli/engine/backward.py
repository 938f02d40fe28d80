"""The backward pass: dependency counts, then a ready queue ordered like torch's, with gradients
reduced and cast once per edge, captured for autograd.grad or accumulated into .grad."""

from __future__ import annotations

import heapq
import weakref

import numpy as np

from gradcli.engine import dtypes, errors, memory_format, node_hooks, raw_step
from gradcli.engine.autograd import AccumulateGrad, Node, gradient_edge
from gradcli.engine.hooks import leaf_hooks, run_hooks
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.engine.zero_tensors import check_mutable
from gradcli.engine.functions import F


def check_roots(roots: list[Tensor]) -> None:
    for i, root in enumerate(roots):
        if not root.requires_grad:
            raise errors.runtime(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            ).noted(*(root._history or ()))


def run_backward(roots: list[Tensor], grads: list, *, retain_graph: bool, create_graph: bool,
                 inputs: list[Tensor] | None = None, accumulate: bool = True) -> list:
    """Backpropagate `grads` from `roots`. With `accumulate`, add into leaves' (or `inputs`') .grad;
    otherwise return the gradients of `inputs` (None where unreachable), as autograd.grad does.
    backward() with `inputs` runs the inputs' own nodes (their hooks fire), and a non-leaf input's
    .grad is filled by retain_grad (the caller's), as in torch. The callers have checked the
    roots (check_roots)."""

    root_edges = [(gradient_edge(root), grad) for root, grad in zip(roots, grads)]
    starts = [edge[0] for edge, _ in root_edges]
    targets: dict[tuple, list[int]] = {}  # an input given twice is captured twice
    forced = set()
    if inputs is None:
        dependencies, wanted = _counts(starts), None
    else:
        for i, tensor in enumerate(inputs):
            targets.setdefault(_edge_key(gradient_edge(tensor)), []).append(i)
        order, dependencies = _discover(starts)
        wanted = _needed_nodes(order, targets)
        if accumulate and targets:
            forced, targets = {key[0] for key in targets}, {}
    run = _Run(targets, [None] * len(inputs or ()), accumulate, forced, create_graph, F)
    for (node, nr), grad in root_edges:
        run.add_to_buffer(node, nr, grad)
    ready: list[tuple] = []
    first = starts[0] if len(starts) == 1 else None  # a lone root needs no queue
    if first is None:
        for n in {id(n): n for n in starts}.values():
            if dependencies.get(n, 0) == 0:
                heapq.heappush(ready, (-n.sequence_nr, _Task(n)))
    raw = not create_graph and not targets and wanted is None and not node_hooks.REGISTERED and \
        raw_step.applies()
    run_raw, add_to_buffer = raw_step.run_raw, run.add_to_buffer
    with grad_mode(create_graph), node_hooks.running(dependencies, wanted):
        node = first  # the next node, when it alone became ready while the queue was empty
        while node is not None or ready:
            if node is None:
                node = heapq.heappop(ready)[1].node
            node_grads = run.buffers.pop(node, None)
            if node_grads is not None and (wanted is None or node in wanted):
                try:
                    if not raw or not (run_raw(node, node_grads, add_to_buffer) if type(node)
                                       is Node else _plain_accumulate(node, node_grads)):
                        run.execute(node, node_grads, wanted)
                except Exception:
                    if STATE.anomaly[0]:  # torch's engine warns where the node was made
                        from gradcli.engine import anomaly
                        anomaly.warn_failed(node)
                    raise
                if not retain_graph and type(node) is not AccumulateGrad:
                    node.freed_at = STATE.origin  # the backward() call, for a second one's note
                    node.release()
            following = None  # skips the queue where it would hold this node alone (a chain)
            for next_node, _ in node.next_edges:
                if next_node is None:
                    continue
                count = dependencies[next_node] - 1
                dependencies[next_node] = count
                if count == 0:
                    if not ready and following is None:
                        following = next_node
                        continue
                    if following is not None:  # queued first, as it became ready first
                        heapq.heappush(ready, (-following.sequence_nr, _Task(following)))
                        following = None
                    heapq.heappush(ready, (-next_node.sequence_nr, _Task(next_node)))
            node = following
    if STATE.backward_observer is not None:
        STATE.backward_observer.finished()
    return run.captured


class _Task:
    """A ready node behind its key (-sequence_nr): keys compare in C, and equal keys (the
    AccumulateGrad nodes, all numbered UINT64_MAX) compare as equal, so they leave the heap as
    from the std::priority_queue torch's ready queue uses (heapq sifts the same way)."""

    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def __lt__(self, other: _Task) -> bool:
        return False


def _edge_key(edge: tuple) -> tuple:
    return (id(edge[0]), edge[1])


def _counts(starts: list) -> dict:
    """Each node's in-degree below `starts` (the nodes themselves included, at 0 if no edge
    reaches them)."""
    dependencies = dict.fromkeys(starts, 0)
    stack = list(dependencies)
    while stack:
        for child, _ in stack.pop().next_edges:
            if child is not None:
                if child in dependencies:
                    dependencies[child] += 1
                else:
                    dependencies[child] = 1
                    stack.append(child)
    return dependencies


def _discover(starts: list) -> tuple[list, dict]:
    """Each node's in-degree below `starts` and a post-order (inputs before users)."""
    dependencies: dict = {}
    order: list = []
    seen = set()
    stack = [(node, False) for node in starts]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        dependencies.setdefault(node, 0)
        stack.append((node, True))
        for child, _ in node.next_edges:
            if child is not None:
                dependencies[child] = dependencies.get(child, 0) + 1
                if child not in seen:
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


class _Run:
    """The state of one backward pass: gradient buffers per node and what to capture."""

    def __init__(self, targets: dict, captured: list, accumulate: bool, forced: set,
                 create_graph: bool, F):
        self.buffers: dict = {}
        self.targets, self.captured, self.accumulate = targets, captured, accumulate
        self.forced, self.create_graph, self.F = forced, create_graph, F

    def add_to_buffer(self, node, nr: int, grad: Tensor) -> None:
        slots = self.buffers.get(node)
        if slots is None:
            slots = self.buffers[node] = [None] * (
                1 if type(node) is AccumulateGrad else len(node._output_meta))
            slots[nr] = grad
        else:
            slots[nr] = grad if slots[nr] is None else self.F.add(slots[nr], grad)

    def execute(self, node, node_grads: list, wanted) -> None:
        """Run `node` on its gradients, as torch's engine: a node that does not run (a leaf's, or
        one no wanted input lies below) gets its tensor hooks before its gradients are captured,
        one that runs gets them after (so a capture there sees the gradient unhooked)."""
        targets, F = self.targets, self.F
        leaf = type(node) is AccumulateGrad
        runs = not leaf and (wanted is None or id(node) in self.forced or
                             any(n in wanted for n, _ in node.next_edges))
        if not runs:
            node_grads = self.pre_hooks(node, node_grads)
        if targets:
            for nr, grad in enumerate(node_grads):
                indices = targets.get((id(node), nr))
                if grad is not None and indices is not None:
                    for index in indices:
                        self.captured[index] = grad
        hooked = node_hooks.has_hooks(node)
        if leaf:
            if self.accumulate:
                if hooked:
                    node_grads = node_hooks.run_prehooks(node, node_grads)
                observer = STATE.backward_observer
                before = None if observer is None or node.variable.grad is None else \
                    node.variable.grad.data.copy()
                _accumulate(node.variable, node_grads[0], self.create_graph, F)
                if observer is not None:
                    observer.accumulated(node, before, node_grads[0], node.variable.grad)
                node_hooks.after_accumulate(node.variable)
                if hooked:
                    node_hooks.run_posthooks(node, [], node_grads)
            return
        if not runs:
            return
        node_grads = self.pre_hooks(node, node_grads)
        if hooked:
            node_grads = node_hooks.run_prehooks(node, node_grads)
        # torch's generated backwards give undefined gradients for undefined ones (gradcheck's
        # undefined output gradients): only a custom Function's backward sees them
        undefined = type(node) is Node and all(g is None for g in node_grads)
        if not undefined and (len(node_grads) > 1 or node_grads[0] is None) and \
                getattr(node, "materialize", True):
            node_grads = [g if g is not None else F.zeros_of(*node.output_meta[nr])
                          for nr, g in enumerate(node_grads)]
        observer = STATE.backward_observer
        if observer is not None:  # narration (explain): what the node reads, before it runs
            observer.running(node, node_grads)
        computed = [None] * len(node.next_edges) if undefined else node.apply(node_grads, wanted)
        # torch's validate_outputs: each gradient summed to its input's shape and cast to its
        # dtype, before the node's post-hooks see them
        edge_grads = [_fitted(node, index, grad, meta) if grad is not None and edge[0]
                      is not None else grad for index, (edge, grad, meta) in
                      enumerate(zip(node.next_edges, computed, node.edge_meta))]
        if hooked:
            edge_grads = node_hooks.run_posthooks(node, edge_grads, node_grads)
        sent = [] if observer is not None else None
        if STATE.anomaly == (True, True):
            _check_nan(node, edge_grads)
        for (next_node, nr), grad, before in zip(node.next_edges, edge_grads, computed):
            if grad is None or next_node is None:
                if sent is not None:
                    sent.append(None)
                continue
            if sent is not None:
                sent.append((next_node, before, grad))
            self.add_to_buffer(next_node, nr, grad)
        if observer is not None:
            observer.ran(node, sent)


    def pre_hooks(self, node, node_grads: list) -> list:
        """The tensor hooks registered for the node's outputs, then retain_grad's (torch runs
        those last)."""
        hooks = leaf_hooks(node.variable) if type(node) is AccumulateGrad else node.hooks
        if hooks:
            by_output = {0: hooks} if type(hooks) is list else hooks
            for nr, registered in by_output.items():
                if registered and node_grads[nr] is not None:
                    node_grads[nr] = run_hooks(registered, node_grads[nr])
        if node.retained:
            for nr, ref in node.retained.items():
                tensor = ref()
                if tensor is not None and node_grads[nr] is not None:
                    _retain(tensor, node_grads[nr], self.F)
        return node_grads


def _fitted(node, index: int, grad: Tensor, meta: tuple) -> Tensor:
    """A node's gradient for its input `index`, in that input's shape and dtype."""
    shape, dtype_name = meta
    if grad.data.shape != shape:
        grad = F.fit_grad(grad, shape, node, index)
    if grad.dtype.name != dtype_name:
        if grad.dtype.is_complex and not dtype_name.startswith("complex"):
            grad = F.real(grad)  # torch's handle_r_to_c: a real input's gradient is real
        grad = F.cast(grad, dtypes.BY_NAME[dtype_name])
    return grad


def _plain_accumulate(node, node_grads: list) -> bool:
    """A leaf's AccumulateGrad step when nothing watches it (no tensor hooks on the leaf, no
    narration): what `_Run.execute` does for it then; False, having done nothing, otherwise."""
    if type(node) is not AccumulateGrad or STATE.backward_observer is not None or \
            leaf_hooks(node.variable):
        return False
    _accumulate(node.variable, node_grads[0], False, F)
    return True


def _check_nan(node, grads: list) -> None:
    """Anomaly mode's check of a node's outputs, as torch's engine words it."""
    for i, grad in enumerate(grads):
        if grad is not None and grad.dtype.is_floating_point and np.isnan(grad.data).any():
            raise errors.runtime(f"Function '{node.name()}' returned nan values in its {i}th "
                                 "output.")


# A leaf's grad_dtype other than its own dtype (None: any), set by Tensor.grad_dtype.
GRAD_DTYPES: "weakref.WeakKeyDictionary[Tensor, object]" = weakref.WeakKeyDictionary()


def _accumulate(tensor: Tensor, grad: Tensor, create_graph: bool, F) -> None:
    """AccumulateGrad: a first gradient is copied into `.grad` (CopyBackwards when building a
    graph), later ones are added, in place unless building a graph; cast to the leaf's
    grad_dtype first."""
    wanted = GRAD_DTYPES.get(tensor, grad.dtype) if GRAD_DTYPES.data else grad.dtype
    if wanted is not None and wanted is not grad.dtype:
        grad = F.cast(grad, wanted)
    if (grad.sparse is not None or tensor.sparse is not None) and not create_graph:
        _accumulate_sparse(tensor, grad, F)
    elif tensor.grad is None:
        if create_graph:
            empty = Tensor(np.empty_like(grad.data), grad.dtype)
            tensor.grad = F.apply_op("copy_", empty, grad)
        else:  # torch steals the gradient; a copy that keeps a zero tensor read-only does too
            data = memory_format.copied_as(grad.data, tensor.data)
            data.flags.writeable = grad.data.flags.writeable
            tensor.grad = Tensor(data, grad.dtype)
    elif create_graph:
        tensor.grad = F.add(tensor.grad, grad)
    else:
        check_mutable(tensor.grad)
        tensor.grad.data += grad.data
        tensor.grad.bump_version()


def _accumulate_sparse(tensor: Tensor, grad: Tensor, F) -> None:
    """AccumulateGrad of a sparse gradient or into a sparse leaf: kept as it is first, then
    added (merged into a sparse .grad, added into a dense one)."""
    if tensor.grad is None:
        tensor.grad = grad
    elif tensor.grad.sparse is not None:  # (a dense one first: dense + sparse is dense)
        tensor.grad = F.add(tensor.grad, grad) if grad.sparse is not None else F.add(
            grad, tensor.grad)
    else:
        check_mutable(tensor.grad)
        tensor.grad.data += F.to_dense(grad).data
        tensor.grad.bump_version()


def _retain(tensor: Tensor, grad: Tensor, F) -> None:
    """The retain_grad hook: a clone of the first gradient, then out-of-place sums."""
    if tensor.grad is None:
        tensor.grad = F.apply_op("clone", grad, contiguous=True)
    else:
        tensor.grad = F.add(tensor.grad, grad)

"""The grad_fn of a custom autograd.Function: its backward is a callback into the program.

The engine runs FunctionNode like any other node; `backward(grads)` (given by whoever made the
node) returns one gradient per input of the Function's apply(), as torch's BackwardCFunction.
"""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.autograd import Node, gradient_edge, next_sequence_nr, record_forward_stack
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import IN_CUSTOM_FUNCTION, Tensor


class FunctionNode(Node):
    """`<NameBackward>`: edges to the inputs that require grad, the user's backward to run.
    A Node to everything that walks graphs; it keeps no op row and no saved values of its own
    (the Function's ctx holds them)."""

    __slots__ = ("label", "backward", "on_release", "materialize", "context", "variable_inputs")
    custom = True  # a program's Function (torch prints its class as torch.autograd.function.X)

    def __init__(self, label: str, inputs: tuple, outputs: tuple, backward, on_release=None,
                 materialize: bool = True):
        self.label, self.backward, self.on_release = label, backward, on_release
        self.materialize = materialize  # missing output gradients reach backward as zeros
        self.context = None  # the Function's ctx, which torch's node is (the language reads it)
        self.sequence_nr = next_sequence_nr()
        self.freed, self.retained, self.hooks, self.params = False, None, None, {}
        self.origin, self.freed_at = STATE.origin, None
        if STATE.anomaly[0]:
            record_forward_stack(self)
        edges, meta = [], []
        for value in inputs:
            if isinstance(value, Tensor) and value.requires_grad:
                edges.append(gradient_edge(value))
                meta.append((value.data.shape, value.dtype.name))
            else:
                edges.append((None, 0))
                meta.append(None)
        self.next_edges, self.edge_meta = tuple(edges), tuple(meta)
        self.variable_inputs = tuple(isinstance(value, Tensor) for value in inputs)
        self._output_meta = tuple((o.data.shape, o.dtype.name) for o in outputs)

    def name(self) -> str:
        return self.label

    @property
    def class_name(self) -> str:
        return self.label

    def apply(self, grads: list, wanted) -> list:
        results = self.backward(grads)
        if not isinstance(results, tuple):
            results = (results,)
        expected = len(self.next_edges)
        if len(results) > expected and all(r is None for r in results[expected:]):
            results = results[:expected]
        if len(results) != expected:
            raise errors.runtime(f"function {self.label} returned an incorrect number of "
                                 f"gradients (expected {expected}, got {len(results)})")
        for position, (grad, variable) in enumerate(zip(results, self.variable_inputs), 1):
            if grad is not None and not variable:
                raise errors.runtime(f"function {self.label} returned a gradient different than "
                                     f"None at position {position}, but the corresponding "
                                     "forward input was not a Variable")
            if grad is not None and not isinstance(grad, Tensor):
                raise errors.runtime(f"expected Variable or None (got {errors.type_name(grad)})")
        out = []
        for index, ((node, _), grad, meta) in enumerate(zip(self.next_edges, results,
                                                             self.edge_meta)):
            if node is None or grad is None or (wanted is not None and node not in wanted):
                out.append(None)
                continue
            if not _expandable(meta[0], grad.shape):
                raise errors.runtime(
                    f"Function {self.label} returned an invalid gradient at index {index} - got "
                    f"[{', '.join(map(str, grad.shape))}] but expected shape compatible with "
                    f"[{', '.join(map(str, meta[0]))}]")
            out.append(grad)
        return out

    def release(self) -> None:
        self.freed = True
        if self.on_release is not None:
            self.on_release()


def _expandable(shape: tuple, desired: tuple) -> bool:
    """Whether `shape` broadcasts to `desired` (a gradient of that shape sums back to it)."""
    if len(shape) > len(desired):
        return False
    return all(s == d or s == 1 for s, d in zip(reversed(shape), reversed(desired)))


class NativeNode(FunctionNode):
    """A node torch's own kernels record (oneDNN's LSTM layer) whose backward gradcli runs
    through a graph of its own making."""

    __slots__ = ()
    custom = False


def returned_input(value: Tensor, differentiable: bool) -> Tensor:
    """An input a custom Function returns as-is: torch hands back a view of it made without grad
    mode (`_view_as_self_with_no_grad`), or, for an output that takes no gradient from an input
    that requires grad, a detached alias."""
    if differentiable or not value.requires_grad:
        with grad_mode(False):
            return F.alias(value)
    return F.detach(value)


def attach_output(out: Tensor, node: Node, output_nr: int) -> None:
    """Make `node` the history of a custom Function's output; an output that is a view may not
    be modified in place afterwards (torch's CreationMeta::IN_CUSTOM_FUNCTION)."""
    out._grad_fn, out.output_nr, out._requires_grad = node, output_nr, True
    if out._base is not None:
        out._creation_meta = IN_CUSTOM_FUNCTION

"""Backward graph nodes: Node (an op's grad_fn with its edges and saved values) and AccumulateGrad."""

from __future__ import annotations

import itertools
import weakref

from gradcli.engine import dtypes, errors, saved_hooks, vmap_batched
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor

_sequence = itertools.count()
RESULT = "result"  # in an op's `save`: the vjps read the op's output
# Op key -> its vjps on raw arrays with their note recipes (ops/raw_vjps.py): backward's fast path.
RAW_VJPS: dict[str, tuple] = {}
RAW_EXPAND = "expand"  # a raw rule's `reads` when its array is the gradient expanded (a view)
_NO_EDGES = ((None, 0),)  # the edge to an input that needs no gradient, as a 1-tuple
_NO_PARAMS: dict = {}  # shared by the many nodes without params (never written to)


def no_grad_history(origin) -> tuple:
    """The `_history` of a tensor computed while grad mode was off: where it was computed, and
    where grad mode was turned off."""
    return (("computed here while grad mode was off (no_grad)", origin),
            ("grad mode was turned off here", STATE.grad_off_at))


LAST_SEQUENCE_NR = 2 ** 64 - 1


def record_forward_stack(node) -> None:
    """Anomaly mode's record of where `node` was made (engine/anomaly.py, loaded with the
    mode's first node)."""
    from gradcli.engine import anomaly
    anomaly.record(node)


def next_sequence_nr() -> int:
    """Nodes run in decreasing creation order when several are ready, as in torch."""
    return next(_sequence)


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


class Node:
    """A grad_fn: the op that made a tensor, its edges to the inputs' nodes, and what it saved.

    `edge_meta` holds (shape, dtype name) of the input behind each edge: the engine reduces and
    casts each gradient to it once, so rules never do. Metadata holds only atoms (names, not
    DType objects) and tuples, so Python's cycle collector soon stops scanning it: a graph of a
    million nodes would otherwise spend much of its time there. Every tensor `saved_args` holds
    has its version in `saved_versions`, unless saved-tensor hooks packed the node's values.
    """

    __slots__ = ("op", "next_edges", "params", "edge_slots", "sequence_nr", "saved_args",
                 "saved_result", "saved_versions", "saves_anything", "freed", "edge_meta",
                 "_output_meta", "retained", "hooks", "origin", "freed_at", "__weakref__")

    @property
    def materialize(self) -> bool:
        """Whether missing output gradients reach the vjps as zeros (else as None)."""
        return self.op.materialize

    def __init__(self, op, args: tuple, outputs: tuple, params: dict, edge_slots: tuple):
        """Record `op` applied to `args`: one edge per slot in `edge_slots`, and the saved
        values its vjps read (only those the inputs that require grad need, as torch saves)."""
        self.op, self.params, self.edge_slots = op, params or _NO_PARAMS, edge_slots
        self.sequence_nr = next(_sequence)
        self.freed = False
        self.retained = self.saved_result = self.hooks = self.freed_at = None
        self.origin = STATE.origin  # where made (freed_at: where its graph was freed)
        if STATE.anomaly[0]:
            record_forward_stack(self)
        save_for = op.save_for  # never set on variadic ops, whose slots outnumber their vjps
        save = op.save if save_for is None else ()
        # tuples grown in place of lists: most ops have one or two operands
        edges = meta = unsaved = ()  # unsaved: the operands, their tensors left out (None)
        for i in edge_slots:
            a = args[i]
            if type(a) is not Tensor:
                edges, meta, unsaved = edges + _NO_EDGES, meta + (None,), unsaved + (a,)
                continue
            meta += ((a.data.shape, a.dtype.name),)
            unsaved += (None,)
            if not a._requires_grad:
                edges += _NO_EDGES
                continue
            node = a._grad_fn
            edges += ((node, a.output_nr) if node is not None and a._base is None else
                      gradient_edge(a)),
            if save_for is not None:
                save += save_for[len(meta) - 1]
        self.next_edges, self.edge_meta = edges, meta
        if len(outputs) == 1:
            out = outputs[0]
            self._output_meta = ((out.data.shape, out.dtype.name),)
        else:
            self._output_meta = tuple([(o.data.shape, o.dtype.name) for o in outputs])
        self.saves_anything = bool(save) or op.saves_params
        for i in save:  # does a rule read a tensor?
            if i == RESULT or i < len(args) and type(args[i]) is Tensor:
                break
        else:
            if not (save and saved_hooks.STACK):  # (packing hooks see every node that saves)
                self.saved_args = unsaved if len(unsaved) == len(args) else _unsaved(args)
                self.saved_versions = ()
                return
        saved_args, versions = [], []
        for i, a in enumerate(args):
            if type(a) is not Tensor:
                saved_args.append(a)
            elif i in save:
                if a.inference:
                    raise errors.runtime(INFERENCE_SAVED)
                saved_args.append(a)
                versions.append((a, a._version_counter.value, False))
            else:
                saved_args.append(None)
        self.saved_args = tuple(saved_args)
        if RESULT in save:
            if op.n_outputs == 1:
                self.saved_result = _shadow(outputs[0])
                versions.append((self.saved_result, self.saved_result._version_counter.value,
                                 True))
            else:  # a multi-output op's rules read all its outputs (Q and R, U, S and Vh...)
                self.saved_result = tuple(_shadow(o) for o in outputs)
                versions += [(o, o._version_counter.value, True) for o in self.saved_result]
        self.saved_versions = tuple(versions)
        if saved_hooks.STACK and op.n_outputs == 1:  # packed values are not version-checked
            saved_hooks.pack_node(self, save, outputs)
            self.saved_versions = ()

    def name(self) -> str:
        return self.op.name or self.op.label

    @property
    def class_name(self) -> str:
        """What Python calls torch's node class (`<MulBackward0 object at ...>`; the last part of
        a C++ name: torch::autograd::NotImplemented is NotImplemented)."""
        return self.op.label.rpartition("::")[2]

    @property
    def next_functions(self) -> tuple:
        return self.next_edges

    @property
    def output_meta(self) -> tuple:
        """(shape, dtype) of each output."""
        return tuple((shape, dtypes.BY_NAME[name]) for shape, name in self._output_meta)

    def save_original_self(self, tensor: Tensor, original: Tensor | None, result: Tensor) -> None:
        """After an in-place op on `tensor`: its self slot reads `original`, the value before the
        write (torch's original_self); other reads of it keep their version, so they fail as in
        torch; the saved result is `result` as written. A node whose values saved-tensor hooks
        packed keeps those (taken before the write), unchecked."""
        if saved_hooks.EVER_PACKED and self in saved_hooks.PACKED:
            return
        recorded = {id(t): v for t, v, is_output in self.saved_versions if not is_output}
        args = list(self.saved_args)
        besides_inputs = [entry for entry in self.saved_versions
                          if not entry[2] and all(entry[0] is not a for a in args)]
        if original is not None and args and args[0] is tensor:
            args[0] = original
        self.saved_args = tuple(args)
        versions = [(a, 0 if a is original else recorded[id(a)], False)
                    for a in args if type(a) is Tensor]
        versions += besides_inputs
        if self.saved_result is not None:
            self.saved_result = _shadow(result)
            versions.append((self.saved_result, result._version_counter.value, True))
        self.saved_versions = tuple(versions)

    def unpack(self) -> tuple[tuple, Tensor | None]:
        """The saved inputs and result, checked against frees and in-place changes."""
        self.check_saved()
        out = self.saved_result
        node = self if STATE.grad_enabled else None
        if type(out) is tuple:
            out = tuple(_tangent_of(o, _batched_as(o, Tensor(
                o.data, o.dtype, grad_fn=node if nr in self._differentiable() else None,
                output_nr=nr))) for nr, o in enumerate(out))
        elif out is not None:
            out = _tangent_of(out, _batched_as(out, Tensor(out.data, out.dtype, grad_fn=node)))
        if saved_hooks.EVER_PACKED and self in saved_hooks.PACKED:
            return saved_hooks.unpack_node(self, self.saved_args, out)
        return self.saved_args, out

    def check_saved(self) -> None:
        """torch's errors for saved values already freed or changed in place since saved."""
        if self.freed:
            raise errors.runtime(errors.BACKWARD_TWICE).noted(
                ("the graph was first backpropagated and freed here: pass retain_graph=True "
                 "to this call to backward through it again", self.freed_at),
                (f"{self.name()} saved tensors here, needed again by the second backward",
                 self.origin))
        for tensor, version, is_output in self.saved_versions:
            if tensor._version_counter.value != version:
                raise errors.runtime(modified_message(tensor, version, self if is_output else None)
                                     ).noted(
                    (f"saved here by {self.name()} at version {version}", self.origin),
                    (f"modified in place here (now at version {tensor._version_counter.value})",
                     tensor._version_counter.bumped_at))

    def _differentiable(self) -> range | tuple:
        wanted = self.op.differentiable_outputs
        return range(len(self._output_meta)) if wanted is None else wanted

    def apply(self, grads: list, wanted) -> list:
        """One gradient per edge (None where the edge needs none), from the output gradients."""
        saved_args, out = self.unpack()
        op = self.op
        g = grads[0] if op.n_outputs == 1 else grads
        extra = {"out": out} if op.saves_result else {}
        result = []
        for i, (next_node, _) in zip(self.edge_slots, self.next_edges):
            if next_node is None or (wanted is not None and next_node not in wanted):
                result.append(None)
            elif op.variadic:
                extra["input_index"] = i
                result.append(op.vjp[0](g, *saved_args, **self.params, **extra))
            else:
                result.append(op.vjp[i](g, *saved_args, **self.params, **extra))
        return result

    def release(self) -> None:
        if self.saves_anything:
            self.freed = True
            if self.saved_versions or saved_hooks.EVER_PACKED:  # (else it holds no tensor)
                self.saved_args = _unsaved(self.saved_args)
                self.saved_result = None
                self.saved_versions = ()
                if saved_hooks.EVER_PACKED:
                    saved_hooks.PACKED.pop(self, None)


def _unsaved(args: tuple) -> tuple:
    """`args` with its tensors left out (None), as a node keeps what it does not save."""
    for a in args:
        if type(a) is Tensor:
            return tuple([None if type(a) is Tensor else a for a in args])
    return args


def save_also(result: Tensor, *tensors: Tensor) -> Tensor:
    """Record with `result`'s node the versions of tensors torch saves besides its inputs (an
    index the forward read as positions), so that backward fails as torch's does if one is
    changed in place meanwhile; returns `result`."""
    node = result._grad_fn if isinstance(result, Tensor) else None
    if type(node) is Node and not saved_hooks.STACK:
        node.saved_versions += tuple((t, t._version_counter.value, False) for t in tensors)
    return result


def _shadow(tensor: Tensor) -> Tensor:
    """A handle on `tensor`'s values, version counter and tangent that does not keep its grad_fn
    alive (torch's SavedVariable keeps an output's forward grad)."""
    shadow = Tensor(tensor.data, tensor.dtype)
    shadow._version_counter = tensor.own_counter()
    return _tangent_of(tensor, _batched_as(tensor, shadow))


def _batched_as(source: Tensor, target: Tensor) -> Tensor:
    """`target`, batched by the running vmap when `source` is (a saved output stays batched in
    its backward)."""
    if STATE.vmap_batched is not None:
        vmap_batched.spread((source,), (target,))
    return target


def _tangent_of(source: Tensor, target: Tensor) -> Tensor:
    """`target`, given `source`'s tangent in the open dual level, if it has one."""
    if source._fw_grad is not None and STATE.dual_level is not None:
        target._fw_grad = source._fw_grad
        STATE.dual_level.add(target)
    return target


class AccumulateGrad:
    """The node that adds an incoming gradient into a leaf's `.grad`."""

    __slots__ = ("variable", "sequence_nr", "__weakref__")
    next_edges = ()
    next_functions = ()
    retained = None
    hooks = None  # a leaf's hooks live beside the leaf (engine/hooks.py)
    class_name = "AccumulateGrad"

    def __init__(self, variable: Tensor):
        self.variable = variable
        self.sequence_nr = LAST_SEQUENCE_NR  # torch's UINT64_MAX: it runs as soon as it is ready

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"


def retain_on(tensor: Tensor, node, output_nr: int) -> None:
    """Fill `tensor.grad` with the gradient that reaches `node`'s output `output_nr`."""
    if node.retained is None:
        node.retained = {}
    node.retained[output_nr] = weakref.ref(tensor)


def move_retained(tensor: Tensor, old_node, old_nr: int) -> None:
    """When an in-place op (or a view's regeneration) gives `tensor` a new grad_fn, torch moves
    its retain_grad hook there, so `.grad` stays the gradient of the latest value."""
    if tensor.retains_grad and old_node is not None and old_node.retained:
        old_node.retained.pop(old_nr, None)
        retain_on(tensor, tensor._grad_fn, tensor.output_nr)


class GradientEdge(tuple):
    """(node, output_nr) named as torch.autograd.graph.GradientEdge: a place in the graph that
    autograd.grad takes in place of a tensor (get_gradient_edge)."""

    __slots__ = ()


def gradient_edge(tensor) -> tuple:
    """The (node, output_nr) a gradient for `tensor` (or a GradientEdge itself) flows into."""
    if isinstance(tensor, GradientEdge):
        return tuple(tensor)
    node = tensor.grad_fn if tensor._base is not None else tensor._grad_fn
    if node is not None:
        return (node, tensor.output_nr)
    accumulator = tensor._accumulator() if tensor._accumulator is not None else None
    if accumulator is None:  # held weakly, as torch does: the graph keeps it alive
        accumulator = AccumulateGrad(tensor)
        tensor._accumulator = weakref.ref(accumulator)
    return (accumulator, 0)


def modified_message(tensor: Tensor, version: int, saving_node) -> str:
    """torch's text for a saved tensor changed in place: a saved output names the node that saved
    it, a saved input names its current grad_fn."""
    shape = ", ".join(str(s) for s in tensor.shape)
    node, output_nr = (saving_node, 0) if saving_node is not None else (tensor.grad_fn,
                                                                        tensor.output_nr)
    where = f", which is output {output_nr} of {short_name(node.name())}," if node else ""
    hint = ("the backtrace further above shows the operation that failed to compute its "
            "gradient. The variable in question was changed in there or anywhere later. Good "
            "luck!") if STATE.anomaly[0] else (
        "enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{tensor.dtype.type_string} [{shape}]]{where} is at version "
        f"{tensor._version}; expected version {version} instead. Hint: {hint}")


def short_name(label: str) -> str:
    """A node's name as torch's messages give it (Node::forward_op_name): "Backward" and a
    numeric suffix of 0 dropped, another kept (MulBackward0 -> Mul, UnsqueezeBackward1 ->
    Unsqueeze1); a name not ending in Backward<digits> unchanged."""
    stem, found, suffix = label.rpartition("Backward")
    if not found or not (suffix.isdigit() or suffix == ""):
        return label
    return stem if suffix in ("", "0") else stem + suffix

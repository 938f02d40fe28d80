"""torch.utils.checkpoint: checkpoint and checkpoint_sequential, as torch's Python runs them.

use_reentrant=True is torch's CheckpointFunction: the function runs without a graph and one
CheckpointFunctionBackward node re-runs it in backward. use_reentrant=False records the graph
with saved-tensor hooks that hold nothing: the first saved tensor backward reads re-runs the
function (with the forward's RNG state) and hands out what that run saved, in order.
"""

from __future__ import annotations

from gradcli.engine import creation, errors, grad_api, saved_hooks
from gradcli.engine.custom import FunctionNode
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime import protocols
from gradcli.language.runtime.values import Namespace, iterate, type_name

_EXPLICIT = ("the use_reentrant parameter should be passed explicitly. {} use_reentrant=False is "
             "recommended, but if you need to preserve the current default behavior, you can "
             "pass use_reentrant=True. Refer to docs for more details on the differences between "
             "the two variants.")
_NO_INPUT_GRAD = "None of the inputs have requires_grad=True. Gradients will be None"


def _generator():
    return creation.DEFAULT_GENERATOR.generator


def _rerun(ctx, function, args: tuple, kwargs: dict, state):
    """The function run again with grad on, from the forward's RNG state (the generator's own
    state is put back afterwards, as torch's fork_rng does)."""
    generator = _generator()
    current = generator.get_state() if state is not None else None
    if state is not None:
        generator.set_state(state)
    try:
        with grad_mode(True):
            return ctx.call(function, list(args), kwargs)
    finally:
        if current is not None:
            generator.set_state(current)


def _detached(value):
    if not isinstance(value, Tensor):
        return value
    copy = F.detach(value)
    copy.requires_grad = value.requires_grad
    return copy


def _reentrant(ctx, function, preserve: bool, args: tuple):
    """CheckpointFunction.apply(function, preserve, *args)."""
    tensors = tuple(a for a in args if isinstance(a, Tensor))
    if not any(t.requires_grad for t in tensors):
        STATE.warn("UserWarning", _NO_INPUT_GRAD)
    state = _generator().get_state() if preserve else None
    with grad_mode(False):
        output = ctx.call(function, list(args), {})
    single = not isinstance(output, tuple)
    outputs = (output,) if single else output
    if not (STATE.grad_enabled and any(t.requires_grad for t in tensors)):
        return output
    results = tuple(F.detach(o) if isinstance(o, Tensor) else o for o in outputs)
    produced = [o for o in results if isinstance(o, Tensor)]

    def run_backward(grads):
        detached = tuple(_detached(a) for a in args)
        again = _rerun(ctx, function, detached, {}, state)
        again = (again,) if isinstance(again, Tensor) else tuple(again)
        pairs = [(o, g) for o, g in zip(again, grads)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise errors.runtime("none of output has requires_grad=True, this checkpoint() is "
                                 "not necessary")
        grad_api.backward([o for o, _ in pairs], [g for _, g in pairs])
        return tuple(d.grad for d in detached if isinstance(d, Tensor))

    node = FunctionNode("CheckpointFunctionBackward", tensors, tuple(produced), run_backward)
    for nr, out in enumerate(produced):
        if out.dtype.is_floating_point:
            out._grad_fn, out.output_nr, out._requires_grad = node, nr, True
    return results[0] if single else results


class _StopRecomputation(Exception):
    """Raised through the program's frames once the recomputation saved all it must (torch's
    early stop): no program code can catch it."""


def _non_reentrant(ctx, function, preserve: bool, early_stop: bool, args: tuple, kwargs: dict):
    """The graph recorded with hooks that keep no saved tensor; backward recomputes them, up
    to the last one the forward saved when `early_stop`."""
    state = _generator().get_state() if preserve else None
    recomputed: list = []

    def pack(_):
        count = holder["packed"]
        holder["packed"] += 1
        return count

    def record(value):
        recomputed.append(value)
        if early_stop and len(recomputed) == holder["packed"]:
            raise _StopRecomputation

    def unpack(index):
        if not recomputed:
            saved_hooks.push(record, lambda _: None)
            try:
                _rerun(ctx, function, tuple(_detached(a) for a in args), kwargs, state)
            except _StopRecomputation:
                pass
            finally:
                saved_hooks.STACK.pop()
        if len(recomputed) != holder["packed"]:
            raise errors.runtime(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                f"original forward and recomputation.\nNumber of tensors saved during forward: "
                f"{holder['packed']}\nNumber of tensors saved during recomputation: "
                f"{len(recomputed)}.")
        return recomputed[index]

    holder = {"packed": 0}
    saved_hooks.push(pack, unpack)
    try:
        return ctx.call(function, list(args), kwargs)
    finally:
        saved_hooks.STACK.pop()


def _use_reentrant(use_reentrant, name: str, when: str) -> bool:
    if use_reentrant is None:
        STATE.warn("UserWarning", f"torch.utils.checkpoint{name}: " + _EXPLICIT.format(when))
        return True
    return bool(use_reentrant)


def checkpoint(ctx, function, *args, use_reentrant=None, context_fn=None,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    use_reentrant = _use_reentrant(use_reentrant, "", "Starting in PyTorch 2.9, calling "
                                   "checkpoint without use_reentrant will raise an exception.")
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise errors.value_error("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise errors.value_error("Passing `context_fn` or `debug` is only supported when "
                                     "use_reentrant=False.")
        return _reentrant(ctx, function, preserve, args)
    return _non_reentrant(ctx, function, preserve, bool(early_stop), args, kwargs)


def checkpoint_sequential(ctx, functions, segments, input, use_reentrant=None, **kwargs):
    use_reentrant = _use_reentrant(use_reentrant, ".checkpoint_sequential", "In version 2.9 we "
                                   "will raise an exception if use_reentrant is not passed.")
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise errors.value_error("Unexpected keyword arguments: " + ",".join(kwargs))
    from gradcli.language.namespaces.modules import Module
    if isinstance(functions, Module) and functions.kind.name == "Sequential":
        functions = list(functions.children.values())
    else:
        functions = list(iterate(functions))

    def run(start: int, end: int):
        def forward(value):
            for j in range(start, end + 1):
                value = ctx.call(functions[j], [value], {})
            return value
        return entry("forward", forward, "input")

    segment_size = protocols.binary("//", len(functions), segments)
    if not isinstance(segment_size, int):
        raise errors.type_error(f"'{type_name(segment_size)}' object cannot be interpreted as an "
                                "integer")
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        chosen = _reentrant(ctx, run(start, end), preserve, (input,)) if use_reentrant else \
            _non_reentrant(ctx, run(start, end), preserve, True, (input,), {})
        input = chosen
    return ctx.call(run(end + 1, len(functions) - 1), [input], {})


CHECKPOINT = Namespace("torch.utils.checkpoint", table(
    entry("checkpoint", checkpoint, "function, *args, use_reentrant=None, context_fn=None, "
          "determinism_check='default', debug=False, early_stop=True, **kwargs", context=True),
    entry("checkpoint_sequential", checkpoint_sequential, "functions, segments, input, "
          "use_reentrant=None, **kwargs", context=True),
))

"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call.

The transforms run on gradcli's autograd: reverse mode through autograd.grad (a graph kept when
the inputs already require grad, so transforms nest), forward mode through forward_ad, and vmap
by calling the function once per entry of the batch and stacking the results.
"""

from __future__ import annotations

import weakref

from gradcli.engine import creation, errors, forward_ad, grad_api, vmap_batched
from gradcli.engine.records import replace
from gradcli.engine.functions import F
from gradcli.engine.ops import linalg as L, selection, shapes
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.func_rearrange import rearrange
from gradcli.language.namespaces import pytree
from gradcli.language.namespaces.builtins import class_text
from gradcli.language.namespaces.func_modules import functional_call, stack_module_state
from gradcli.language.runtime import attributes
from gradcli.language.runtime.signatures import WrappedBuiltin, entry, table
from gradcli.language.runtime.values import Namespace, type_name


def _transformed(ctx, func, args: list, kwargs: dict, kinds: tuple = ("grad",)):
    """func(*args, **kwargs) with transforms of these kinds ("grad", "vmap", "jvp") active, as
    custom Functions check them."""
    outer = STATE.func_transforms
    STATE.func_transforms = outer + kinds
    try:
        return ctx.call(func, args, kwargs)
    finally:
        STATE.func_transforms = outer


def _wrapper(qualname: str, run, func) -> object:
    """A transform's function around `func`, named as `func` where it has names to copy (torch's
    transforms use functools.wraps), else by its own `qualname` (vmap.<locals>.wrapped)."""
    try:
        names = attributes.get(func, "__name__"), attributes.get(func, "__qualname__")
    except errors.TorchError:
        return entry(qualname.rpartition(".")[2], run, "*args, **kwargs", qualname=qualname)
    return WrappedBuiltin(names[0], run, "*args, **kwargs", qualname=names[1], wrapped=func)


def _argnums(argnums, count: int) -> tuple:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for n in nums:
        if not isinstance(n, int):
            raise errors.runtime(f"argnums must be int or Tuple[int, ...], got: {class_text(n)}")
        if not -count <= n < count:
            raise errors.runtime(f"Got argnum={n}, but only {count} positional inputs")
    wrapped = tuple(n % count for n in nums)
    if isinstance(argnums, tuple):
        if not wrapped:
            raise errors.runtime("argnums must be non-empty")
        if len(set(wrapped)) != len(wrapped):
            raise errors.runtime(f"argnums elements must be unique, got {wrapped}")
    return wrapped


def _prepare(t: Tensor) -> Tensor:
    """The tensor the function sees: a fresh leaf, or (nested in another transform) an alias that
    keeps the outer graph, its backward passing gradients through unchanged as torch's levels
    do (no view op in a nested transform's results' graph)."""
    if t.requires_grad:
        return selection.alias(t)
    leaf = grad_api.requires_grad_(F.detach(t), True)
    _TRANSFORM_LEAVES[leaf] = len(STATE.func_transforms)
    return _keeping_tangent(t, leaf)


# the fresh leaves transforms differentiate by, and how deep in transforms each was made: seen
# from a shallower transform, a graph reaching one reaches nothing outside (torch's inner levels
# leave no graph at the outer ones)
_TRANSFORM_LEAVES = weakref.WeakKeyDictionary()


def _keeping_tangent(t: Tensor, result: Tensor) -> Tensor:
    """`result` with `t`'s forward-mode tangent (a transform nested in jvp or jacfwd)."""
    if t._fw_grad is not None and STATE.dual_level is not None:
        forward_ad.make_dual_in_place(result, t._fw_grad)
    return result


def _finish(t, keep):
    """A transform's result seen from outside: kept whole when `keep` is True, kept when it
    reaches a closed-over tensor when `keep` is a set of the transform's input ids, else
    detached."""
    if isinstance(t, tuple):
        return tuple(_finish(v, keep) for v in t)
    if isinstance(t, list):
        return [_finish(v, keep) for v in t]
    if isinstance(t, dict):
        return {k: _finish(v, keep) for k, v in t.items()}
    if not isinstance(t, Tensor) or keep is True or (keep and _reaches_outside(t, keep)):
        return t
    return _keeping_tangent(t, F.detach(t))


def _finish_outputs(value, keep, prepared, originals):
    """_finish on each tensor of a pytree, where one of the transform's own inputs comes back as
    the tensor that was passed in (torch unwraps it to the original object)."""
    given = {id(p): o for p, o in zip(_leaves(prepared), _leaves(originals))}
    return _tree_map(lambda t: given[id(t)] if id(t) in given else _finish(t, keep), value)


def _reaches_outside(t: Tensor, inner: frozenset) -> bool:
    """Whether `t`'s graph reaches a leaf that requires grad other than those in `inner`."""
    seen, todo = set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in inner and \
                _TRANSFORM_LEAVES.get(variable, -1) <= len(STATE.func_transforms):
            return True
        todo.extend(n for n, _ in node.next_edges)
    return False


def _keep(nested: bool, output, inputs: list):
    """How results keep their graph (see _finish): whole when nested in another transform; by
    result when `output` reaches a closed-over tensor that requires grad, as torch's results
    keep the graph of what the function closed over."""
    if nested:
        return True
    inner = frozenset(id(t) for t in inputs)
    return inner if any(isinstance(o, Tensor) and _reaches_outside(o, inner)
                        for o in _leaves(output)) else False


def _tree_map(fn, value):
    """`fn` on each tensor of a nest of tuples, lists and dicts (a pytree), the nest kept."""
    if isinstance(value, tuple):
        return tuple(_tree_map(fn, v) for v in value)
    if isinstance(value, list):
        return [_tree_map(fn, v) for v in value]
    if isinstance(value, dict):
        return {k: _tree_map(fn, v) for k, v in value.items()}
    return fn(value) if isinstance(value, Tensor) else value


def _leaves(value) -> list:
    found = []
    _tree_map(found.append, value)
    return found


def _all_leaves(value) -> list:
    """Every leaf of a pytree, tensors or not (an empty container has none)."""
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _all_leaves(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _all_leaves(v)]
    return [value]


def _python_type(value) -> str:
    return f"<class '{type_name(value)}'>"


def _differentiable(value):
    """A transform's input made differentiable: every leaf must be a tensor, as torch's
    _create_differentiable requires."""
    for leaf in _all_leaves(value):
        if not isinstance(leaf, Tensor):
            raise errors.value_error("Thing passed to transform API must be Tensor, got "
                                     f"{_python_type(leaf)}")
    return _tree_map(_prepare, value)


def _checked_aux(aux):
    """has_aux's second output: a pytree of tensors only."""
    for leaf in _all_leaves(aux):
        if not isinstance(leaf, Tensor):
            raise errors.runtime(f"Expected tensors, got unsupported type {_python_type(leaf)}")
    return aux


def _checked_outputs(output, api: str) -> list:
    """The tensors of a vjp/jvp function's output, with torch's complaints about the rest."""
    leaves = _all_leaves(output) if output is not None else []
    if not leaves:
        raise errors.runtime(f"{api}: Expected f to be a function that has non-empty output "
                             f"(got output = {'[None]' if output is None else '[]'})")
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise errors.runtime(f"{api}: expected f(*primals) to return only tensors, got "
                                 f"unsupported type {_python_type(leaf)}")
    return leaves


def _grads(outputs: list, inputs: list, cotangents, keep: bool) -> list:
    """autograd.grad of `outputs` by `inputs`, zeros where an input is not reached."""
    wanted = [i for i, t in enumerate(outputs) if t.requires_grad]
    result = [None] * len(inputs)
    if wanted:
        found = grad_api.grad([outputs[i] for i in wanted], inputs,
                              None if cotangents is None else [cotangents[i] for i in wanted],
                              retain_graph=True, create_graph=bool(keep), allow_unused=True)
        result = list(found)
    return [g if g is not None else F.zeros_for(t) for g, t in zip(result, inputs)]


def _traced(args: tuple, argnums) -> tuple[tuple, bool]:
    """The argument positions differentiated, and whether the results keep a graph (nested in
    another transform)."""
    nums = _argnums(argnums, len(args))
    return nums, any(t.requires_grad for n in nums for t in _leaves(args[n]))


def _call_traced(ctx, func, args: tuple, kwargs: dict, nums: tuple, has_aux: bool, name: str):
    """(the arguments as passed, the output, the aux output) of `func` on traced inputs."""
    call_args = list(args)
    for n in nums:
        call_args[n] = _differentiable(args[n])
    output = _transformed(ctx, func, call_args, kwargs)
    aux = None
    if has_aux:
        if not (isinstance(output, tuple) and len(output) == 2):
            raise errors.runtime(f"{name}(f)(*args): output of function f should be a tuple: "
                                 "(output, aux) if has_aux is True")
        output, aux = output
        _checked_aux(aux)
    return call_args, output, aux


def _grad_and_value(ctx, func, argnums, has_aux, args: tuple, kwargs: dict):
    nums, keep = _traced(args, argnums)
    with grad_mode(True):
        call_args, output, aux = _call_traced(ctx, func, args, kwargs, nums, has_aux,
                                              "grad_and_value")
        if not isinstance(output, Tensor):
            raise errors.runtime("grad_and_value(f)(*args): Expected f(*args) to return a "
                                 f"Tensor, got {class_text(output)}")
        if output.ndim != 0:
            raise errors.runtime("grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                                 f"Tensor, got tensor with {output.ndim} dims. Maybe you wanted "
                                 "to use the vjp or jacrev APIs instead?")
        inputs = [t for n in nums for t in _leaves(call_args[n])]
        keep = _keep(keep, output, inputs)
        flat = _grads([output], inputs, None, keep)
    flat = iter([_finish(g, keep) for g in flat])
    grads = tuple(_tree_map(lambda _: next(flat), call_args[n]) for n in nums)
    result = grads if isinstance(argnums, tuple) else grads[0]
    prepared, originals = [call_args[n] for n in nums], [args[n] for n in nums]
    value = _finish_outputs(output, keep, prepared, originals)
    return result, ((value, _finish_outputs(aux, keep, prepared, originals)) if has_aux
                    else value)


def grad_and_value(ctx, func, argnums=0, has_aux=False):
    return _wrapper("grad_and_value.<locals>.wrapper", lambda *args, **kwargs: _grad_and_value(
        ctx, func, argnums, has_aux, args, kwargs), func)


def grad(ctx, func, argnums=0, has_aux=False):
    def run(*args, **kwargs):
        grads, value = _grad_and_value(ctx, func, argnums, has_aux, args, kwargs)
        return (grads, value[1]) if has_aux else grads
    return _wrapper("grad.<locals>.wrapper", run, func)


def vjp(ctx, func, *primals, has_aux=False):
    keep = any(t.requires_grad for t in _leaves(primals))
    with grad_mode(True):
        inputs = tuple(_differentiable(p) for p in primals)
        output = _transformed(ctx, func, list(inputs), {})
        aux = None
        if has_aux:
            output, aux = output
            _checked_aux(aux)
    outputs = _checked_outputs(output, "vjp(f, *primals)")
    out_spec = pytree.flatten(output)[1]
    flat_inputs, in_spec = pytree.flatten(inputs)
    keep = _keep(keep, output, flat_inputs)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        given, spec = pytree.flatten(cotangents)
        if spec != out_spec:
            raise errors.runtime("Expected pytree structure of cotangents to be the same as "
                                 "pytree structure of outputs to the function. cotangents: "
                                 f"{spec.pprint()}, primal output: {out_spec.pprint()}")
        with grad_mode(True):
            grads = _grads(outputs, flat_inputs, given, keep)
        return pytree.unflatten([_finish(g, keep) for g in grads], in_spec)

    result = (_finish_outputs(output, keep, inputs, primals), entry(
        "wrapper", vjp_fn, "cotangents, retain_graph=True, create_graph=None",
        qualname="_vjp_with_argnums.<locals>.wrapper"))
    return result + (_finish_outputs(aux, keep, inputs, primals),) if has_aux else result


def _pushforward(ctx, func, args: tuple, kwargs: dict, nums: tuple, tangents: list,
                 has_aux: bool, kinds: tuple = ("jvp",)):
    """(the output, its tangents' leaves, the aux output) of `func` with the leaves of the
    arguments at `nums` made dual with `tangents`."""
    leaves, spec = pytree.flatten(tuple(args[n] for n in nums))
    with forward_ad.dual_level():
        duals = pytree.unflatten([forward_ad.make_dual(p, t) for p, t in zip(leaves, tangents)],
                                 spec)
        call_args = list(args)
        for n, dual in zip(nums, duals):
            call_args[n] = dual
        output = _transformed(ctx, func, call_args, kwargs, kinds)
        aux = None
        if has_aux:
            output, aux = output
        outs, out_spec = pytree.flatten(output)
        _checked_outputs(output, "jvp(f, primals, tangents)")
        pairs = [forward_ad.unpack_dual(o) for o in outs]
        primal_out = [F.detach(p[0]) if not p[0].requires_grad else p[0] for p in pairs]
        tangent_out = [p[1] if p[1] is not None else F.zeros_for(p[0]) for p in pairs]
    return pytree.unflatten(primal_out, out_spec), tangent_out, aux


def jvp(ctx, func, primals, tangents, *, strict=False, has_aux=False):
    if not isinstance(primals, tuple):
        raise errors.runtime("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it "
                             "should be valid to call f(*primals).")
    if not isinstance(tangents, tuple):
        raise errors.runtime("jvp(f, primals, tangents): Expected tangents to be a tuple. E.g. "
                             "it should be valid to call f(*primals).")
    (flat_primals, primal_spec), (flat_tangents, tangent_spec) = (pytree.flatten(primals),
                                                                  pytree.flatten(tangents))
    if primal_spec != tangent_spec:
        raise errors.runtime("jvp(f, primals, tangents): Expected primals and tangents to have "
                             f"the same python structure. For example, if primals is a tuple of "
                             "3 tensors, tangents also must be. Got primals with structure "
                             f"{primal_spec.text()} and tangents with structure "
                             f"{tangent_spec.text()}")
    for what, leaves in (("primals", flat_primals), ("tangents", flat_tangents)):
        if not leaves:
            raise errors.runtime(f"jvp(f, primals, tangents): Expected {what} to contain at "
                                 "least one Tensor.")
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise errors.runtime(f"jvp(f, primals, tangents): Expected {what} to only "
                                     f"contain Tensors, got {_python_type(leaf)}")
    output, tangent_out, aux = _pushforward(ctx, func, primals, {}, tuple(range(len(primals))),
                                            flat_tangents, has_aux)
    tangent_out = pytree.unflatten(tangent_out, pytree.flatten(output)[1])
    return (output, tangent_out, aux) if has_aux else (output, tangent_out)


_CONST_FOLD_WARNING = (
    "Attempted to insert a get_attr Node with no underlying reference in the owning GraphModule! "
    "Call GraphModule.add_submodule to add the necessary submodule, GraphModule.add_parameter to "
    "add the necessary Parameter, or nn.Module.register_buffer to add the necessary buffer")


def linearize(ctx, func, *primals):
    """(func(*primals), jvp_fn), jvp_fn(*tangents) pushing tangents forward at the primals.
    torch traces the jvp with make_fx, whose constant folding warns once per primal tensor."""
    for _ in _leaves(primals):
        STATE.warn("UserWarning", _CONST_FOLD_WARNING)
    output = jvp(ctx, func, primals, tuple(_tree_map(F.zeros_for, primals)))[0]
    return output, entry("jvp_fn", lambda *tangents: jvp(ctx, func, primals, tangents)[1],
                         "*tangents", qualname="linearize.<locals>.jvp_fn")


def _by_output(per_leaf: list, argnums, in_spec, out_spec):
    """A jacobian's pytree from [output leaf][input leaf] blocks: the output's structure, each
    leaf holding the differentiated arguments' structure (one argument unless argnums is a
    tuple)."""
    per_output = []
    for blocks in per_leaf:
        by_input = pytree.unflatten(blocks, in_spec)
        per_output.append(by_input if isinstance(argnums, tuple) else by_input[0])
    return pytree.unflatten(per_output, out_spec)


def _jacobian_by_rows(ctx, func, argnums, has_aux, args: tuple, kwargs: dict):
    """jacrev: one reverse pass per element of the output."""
    nums, keep = _traced(args, argnums)
    with grad_mode(True):
        call_args, output, aux = _call_traced(ctx, func, args, kwargs, nums, has_aux, "jacrev")
        outs = _checked_outputs(output, "vjp(f, *primals)")
        inputs, in_spec = pytree.flatten(tuple(call_args[n] for n in nums))
        keep = _keep(keep, output, inputs)
        per_leaf = []
        for out in outs:
            flat = shapes.reshape(out, (-1,))
            columns = [[] for _ in inputs]
            for j in range(out.numel()):
                row = _grads([F.select(flat, 0, j)], inputs, None, keep)
                for column, g in zip(columns, row):
                    column.append(g)
            jac = []
            for column, inp in zip(columns, inputs):
                stacked = (shapes.stack(column, 0) if column else
                           F.zeros_of((0,) + inp.shape, inp.dtype))
                jac.append(_finish(shapes.reshape(stacked, out.shape + inp.shape), keep))
            per_leaf.append(jac)
    result = _by_output(per_leaf, argnums, in_spec, pytree.flatten(output)[1])
    return (result, _finish(aux, keep)) if has_aux else result


def jacrev(ctx, func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    return _wrapper("jacrev.<locals>.wrapper_fn", lambda *args, **kwargs: _jacobian_by_rows(
        ctx, func, argnums, has_aux, args, kwargs), func)


def _jacobian_by_columns(ctx, func, argnums, has_aux, args: tuple, kwargs: dict):
    """jacfwd: one forward-mode pass per element of each input."""
    nums = _argnums(argnums, len(args))
    inputs, in_spec = pytree.flatten(tuple(args[n] for n in nums))
    for x in inputs:
        if not isinstance(x, Tensor):
            raise errors.TorchError("AttributeError", f"'{type_name(x)}' object has no attribute "
                                    "'numel'")
    zeros = [F.zeros_for(x) for x in inputs]
    output, aux, columns = None, None, []
    for i, x in enumerate(inputs):
        per_element = []
        for k in range(x.numel()):
            basis = F.zeros_for(x)
            basis.data.reshape(-1)[k] = 1
            tangents = [basis if j == i else z for j, z in enumerate(zeros)]
            output, tangent, aux = _pushforward(ctx, func, args, kwargs, nums, tangents, has_aux,
                                                ("vmap", "jvp"))
            per_element.append(tangent)
        columns.append(per_element)
    if output is None:
        output, _, aux = _pushforward(ctx, func, args, kwargs, nums, zeros, has_aux,
                                      ("vmap", "jvp"))
    outs, out_spec = pytree.flatten(output)
    per_leaf = []
    for o, out in enumerate(outs):
        jac = []
        for x, per_element in zip(inputs, columns):
            cols = [tangent[o] for tangent in per_element]
            stacked = shapes.stack(cols, -1) if cols else F.zeros_of(out.shape + (0,), out.dtype)
            # torch unflattens the last dim to the input's shape: a squeeze for a 0-d input
            jac.append(shapes.reshape(stacked, out.shape + x.shape) if x.shape
                       else F.squeeze(stacked, -1))
        per_leaf.append(jac)
    result = _by_output(per_leaf, argnums, in_spec, out_spec)
    return (result, aux) if has_aux else result


def jacfwd(ctx, func, argnums=0, has_aux=False, *, randomness="error"):
    return _wrapper("jacfwd.<locals>.wrapper_fn", lambda *args, **kwargs: (
        _jacobian_by_columns if STATE.dual_level is None else _jacobian_by_rows)(
        ctx, func, argnums, has_aux, args, kwargs), func)


def hessian(ctx, func, argnums=0):
    """jacfwd(jacrev(func)), as torch composes it."""
    return jacfwd(ctx, jacrev(ctx, func, argnums), argnums)


def _incompatible(ctx, name: str, which: str, dims, spec) -> errors.TorchError:
    head = (f"in_dims={ctx.printer.str(dims)}, ...)(<inputs>): in_dims" if which == "in_dims"
            else f"..., out_dims={ctx.printer.str(dims)})(<inputs>): out_dims")
    what = "inputs" if which == "in_dims" else "outputs"
    return errors.TorchError(
        "ValueError", f"vmap({name}, {head} is not compatible with the structure of `{what}`. "
        f"{which} has structure {pytree.flatten(dims)[1].text()} but {what} has structure "
        f"{spec.text()}.")


def _batched_inputs(ctx, name: str, in_dims, args: tuple) -> tuple:
    """(the batch size, the flat inputs, their in_dims, the inputs' spec), checked as torch's
    _process_batched_inputs checks them."""
    shown = ctx.printer.str(in_dims)
    if not isinstance(in_dims, (int, tuple)):
        raise errors.value_error(
            f"vmap({name}, in_dims={shown}, ...)(<inputs>): expected `in_dims` to be int or a "
            "(potentially nested) tuple matching the structure of inputs, got: "
            f"{_python_type(in_dims)}.")
    if not args:
        raise errors.value_error(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            "trying to vmap over a function with no inputs. The latter is unsupported.")
    leaves, spec = pytree.flatten(args)
    dims = pytree.broadcast(in_dims, spec)
    if dims is None:
        raise _incompatible(ctx, name, "in_dims", in_dims, spec)
    sizes = []
    for i, (a, d) in enumerate(zip(leaves, dims)):
        if d is None:
            continue
        if not isinstance(d, int):
            raise errors.value_error(
                f"vmap({name}, in_dims={shown}, ...)(<inputs>): Got in_dim={ctx.printer.str(d)} "
                "for an input but in_dim must be either an integer dimension or None.")
        if not isinstance(a, Tensor):
            raise errors.value_error(
                f"vmap({name}, in_dims={shown}, ...)(<inputs>): Got in_dim={d} for an input but "
                f"the input is of type {_python_type(a)}. We cannot vmap over non-Tensor "
                "arguments, please use None as the respective in_dim")
        if not -a.ndim <= d < a.ndim:
            raise errors.value_error(
                f"vmap({name}, in_dims={shown}, ...)(<inputs>): Got in_dim={d} for some input, "
                f"but that input is a Tensor of dimensionality {a.ndim} so expected in_dim to "
                f"satisfy -{a.ndim} <= in_dim < {a.ndim}.")
        dims[i] = d % a.ndim
        sizes.append(a.shape[d])
    if not sizes:
        raise errors.value_error("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise errors.value_error(
            "vmap: Expected all tensors to have the same size in the mapped "
            f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0], leaves, dims, spec


_RANDOM_IN_VMAP = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' "
    "or 'different' randomness flags on vmap or perform the randomness operation out of vmap")


def _sample(ctx, func, leaves: list, dims: list, spec, kwargs: dict, at: tuple,
            randomness: str, start):
    """func on sample b of `at` (b, size), its inputs' slices marked batched: the flattened
    result."""
    b, size = at
    sliced = []
    for a, d in zip(leaves, dims):
        if d is not None:
            a = F.select(a, d, b)
            vmap_batched.mark(a)
        sliced.append(a)
    if randomness == "same" and b > 0:  # every sample draws what the first one drew
        creation.DEFAULT_GENERATOR.generator.set_state(start)
    refused, kept = STATE.random_refused, STATE.graph_kept
    STATE.random_refused = _RANDOM_IN_VMAP if randomness == "error" else refused
    STATE.graph_kept = kept or b < size - 1
    try:
        outs, out_spec = pytree.flatten(_transformed(
            ctx, func, list(pytree.unflatten(sliced, spec)), kwargs, ("vmap",)))
        return outs, out_spec, sliced
    finally:
        STATE.random_refused, STATE.graph_kept = refused, kept


def _vmap(ctx, func, in_dims, out_dims, randomness: str, args: tuple, kwargs: dict,
          fold: bool = True):
    """func on each sample; `fold`: the samples make one batch (no chunk_size), whose rows
    torch's mm batch rule multiplies at once (gradcli/engine/ops/linalg.py)."""
    name = getattr(func, "name", "<function>")
    size, leaves, dims, spec = _batched_inputs(ctx, name, in_dims, args)
    results = []
    generator = creation.DEFAULT_GENERATOR.generator
    start = generator.get_state()
    outer, sample = vmap_batched.begin(), STATE.vmap_sample
    try:
        for b in range(size):
            STATE.vmap_sample = (b, size) if outer is None and fold else None
            results.append(_sample(ctx, func, leaves, dims, spec, kwargs, (b, size), randomness,
                                   start))
            if b == 0:
                after_first = generator.get_state()
    finally:
        vmap_batched.end(outer)
        STATE.vmap_sample = sample
    if randomness == "same" and size > 1:
        generator.set_state(after_first)
    outs, out_spec, _ = results[0]
    if out_spec.kind is None and isinstance(outs[0], Tensor):
        flat_dims = ([out_dims] if isinstance(out_dims, (int, type(None))) else list(out_dims)
                     if isinstance(out_dims, tuple) and len(out_dims) == 1 else None)
    else:
        flat_dims = pytree.broadcast(out_dims, out_spec)
    if flat_dims is None:
        raise _incompatible(ctx, name, "out_dims", out_dims, out_spec)
    stacked = [_passed_through([r[0][j] for r in results], [r[2] for r in results], leaves,
                               dims, d) or _stack_out([r[0][j] for r in results], d, name)
               for j, d in enumerate(flat_dims)]
    return pytree.unflatten(stacked, out_spec)


def _passed_through(values: list, sliced: list, leaves: list, dims: list, out_dim):
    """An output that is, in every sample, that sample's slice of one batched input: torch's
    run on the batch returns that input itself (its batch dim moved to `out_dim`)."""
    if not isinstance(out_dim, int) or not values or not isinstance(values[0], Tensor):
        return None
    for i, d in enumerate(dims):
        if d is not None and all(v is s[i] for v, s in zip(values, sliced)):
            leaf = leaves[i]
            return leaf if out_dim % leaf.ndim == d % leaf.ndim else L.movedim(leaf, d, out_dim)
    return None


def _stack_out(values: list, out_dim, name: str):
    if out_dim is None:
        return values[0]
    if not isinstance(values[0], Tensor):
        raise errors.value_error(
            f"vmap({name}, ...): `{name}` must only return Tensors, got type "
            f"{_python_type(values[0])}. Did you mean to set out_dims= to None for output?")
    return _named_as_batched(shapes.stack(values, out_dim), values)


# A reduction of a whole sample is, on the batch, a reduction over the sample's dims
_BATCHED_LABELS = {"SumBackward0": "SumBackward1", "MeanBackward0": "MeanBackward1",
                   "ProdBackward0": "ProdBackward1", "MaxBackward1": "MaxBackward0",
                   "MinBackward1": "MinBackward0", "SqueezeBackward1": "SqueezeBackward2"}


def _named_as_batched(stacked: Tensor, values: list) -> Tensor:
    """torch runs the function once on the whole batch, so the result's grad_fn is the node of
    its last op: the stack's node takes that name when every sample's result ends in the same
    op (its backward stays the stack's)."""
    node = stacked._grad_fn
    ends = {v._grad_fn.op.label if v._grad_fn is not None else None for v in values}
    if node is None or len(ends) != 1 or None in ends:
        return stacked
    last = values[0]._grad_fn.op
    label = _BATCHED_LABELS.get(last.label, last.label)
    node.op = replace(node.op, label=label, name=last.name if label == last.label else "")
    return stacked


def vmap(ctx, func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    if randomness not in ("error", "different", "same"):
        raise errors.runtime("Only allowed values for randomness are 'error', 'different', or "
                             f"'same'. Got {randomness}")
    return _wrapper("vmap.<locals>.wrapped", lambda *args, **kwargs: _vmap(
        ctx, func, in_dims, out_dims, randomness, args, kwargs, chunk_size is None), func)


FUNC = Namespace("torch.func", table(
    entry("functional_call", functional_call, "module, parameter_and_buffer_dicts, args=None, "
          "kwargs=None, *, tie_weights=True, strict=False", context=True),
    entry("stack_module_state", stack_module_state, "models"),
    entry("grad", grad, "func, argnums=0, has_aux=False", context=True),
    entry("grad_and_value", grad_and_value, "func, argnums=0, has_aux=False", context=True),
    entry("vjp", vjp, "func, *primals, has_aux=False", context=True),
    entry("jvp", jvp, "func, primals, tangents, *, strict=False, has_aux=False", context=True),
    entry("jacrev", jacrev, "func, argnums=0, *, has_aux=False, chunk_size=None, "
          "_preallocate_and_copy=False", context=True),
    entry("jacfwd", jacfwd, "func, argnums=0, has_aux=False, *, randomness='error'",
          context=True),
    entry("hessian", hessian, "func, argnums=0", context=True),
    entry("linearize", linearize, "func, *primals", context=True),
    entry("vmap", vmap, "func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None",
          context=True),
    entry("rearrange", rearrange, "tensor, pattern, **axes_lengths", context=True),
))

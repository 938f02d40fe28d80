"""torch.func: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call.

The transforms run on gradcli's autograd: reverse mode through autograd.grad (a graph kept when
the inputs already require grad, so transforms nest), forward mode through forward_ad, and vmap
by calling the function once per entry of the batch and stacking the results.
"""

from __future__ import annotations

from gradcli.engine import errors, forward_ad, grad_api
from gradcli.engine.functions import F
from gradcli.engine.ops import shapes
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name


def _wrapper(name: str, run) -> object:
    return entry(name, run, "*args, **kwargs", qualname=name)


def _argnums(argnums, count: int) -> tuple:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for n in nums:
        if not isinstance(n, int):
            raise errors.runtime(f"argnums must be int or Tuple[int, ...], got: {type(n)}")
        if not -count <= n < count:
            raise errors.runtime(f"Got argnum={n}, but only {count} positional inputs")
    return tuple(n % count for n in nums)


def _prepare(t: Tensor) -> Tensor:
    """The tensor the function sees: a fresh leaf, or (nested in another transform) a view that
    keeps the outer graph."""
    if t.requires_grad:
        return shapes.view(t, t.shape)
    return _keeping_tangent(t, grad_api.requires_grad_(F.detach(t), True))


def _keeping_tangent(t: Tensor, result: Tensor) -> Tensor:
    """`result` with `t`'s forward-mode tangent (a transform nested in jvp or jacfwd)."""
    if t._fw_grad is not None and STATE.dual_level is not None:
        forward_ad.make_dual_in_place(result, t._fw_grad)
    return result


def _finish(t, keep: bool):
    if isinstance(t, tuple):
        return tuple(_finish(v, keep) for v in t)
    if isinstance(t, list):
        return [_finish(v, keep) for v in t]
    if isinstance(t, dict):
        return {k: _finish(v, keep) for k, v in t.items()}
    return t if keep or not isinstance(t, Tensor) else _keeping_tangent(t, F.detach(t))


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
                              retain_graph=True, create_graph=keep, allow_unused=True)
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
    output = ctx.call(func, call_args, kwargs)
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
                                 f"Tensor, got {type(output)}")
        if output.ndim != 0:
            raise errors.runtime("grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                                 f"Tensor, got tensor with {output.ndim} dims. Maybe you wanted "
                                 "to use the vjp or jacrev APIs instead?")
        flat = _grads([output], [t for n in nums for t in _leaves(call_args[n])], None, keep)
    flat = iter([_finish(g, keep) for g in flat])
    grads = tuple(_tree_map(lambda _: next(flat), call_args[n]) for n in nums)
    result = grads if isinstance(argnums, tuple) else grads[0]
    value = _finish(output, keep)
    return result, ((value, _finish(aux, keep)) if has_aux else value)


def grad_and_value(ctx, func, argnums=0, has_aux=False):
    return _wrapper("wrapper", lambda *args, **kwargs: _grad_and_value(
        ctx, func, argnums, has_aux, args, kwargs))


def grad(ctx, func, argnums=0, has_aux=False):
    def run(*args, **kwargs):
        grads, value = _grad_and_value(ctx, func, argnums, has_aux, args, kwargs)
        return (grads, value[1]) if has_aux else grads
    return _wrapper("wrapper", run)


def vjp(ctx, func, *primals, has_aux=False):
    keep = any(isinstance(p, Tensor) and p.requires_grad for p in primals)
    with grad_mode(True):
        inputs = [_differentiable(p) for p in primals]
        output = ctx.call(func, inputs, {})
        aux = None
        if has_aux:
            output, aux = output
            _checked_aux(aux)
    _checked_outputs(output, "vjp(f, *primals)")
    outputs = list(output) if isinstance(output, tuple) else [output]

    def vjp_fn(*cotangents):
        given = list(cotangents[0]) if len(cotangents) == 1 and isinstance(
            cotangents[0], tuple) else list(cotangents)
        with grad_mode(True):
            grads = _grads(outputs, inputs, given, keep)
        return tuple(_finish(g, keep) for g in grads)

    result = (_finish(output, keep), _wrapper("wrapper", vjp_fn))
    return result + (_finish(aux, keep),) if has_aux else result


def jvp(ctx, func, primals, tangents, *, strict=False, has_aux=False):
    if not isinstance(primals, tuple):
        raise errors.runtime("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it "
                             "should be valid to call f(*primals).")
    if not isinstance(tangents, tuple):
        raise errors.runtime("jvp(f, primals, tangents): Expected tangents to be a tuple. E.g. "
                             "it should be valid to call f(*primals).")
    if len(primals) != len(tangents):
        raise errors.runtime("jvp(f, primals, tangents): Expected primals and tangents to have "
                             f"the same python structure. For example, if primals is a tuple of "
                             "3 tensors, tangents also must be. Got primals with structure "
                             f"{len(primals)} and tangents with structure {len(tangents)}")
    with forward_ad.dual_level():
        duals = [forward_ad.make_dual(p, t) for p, t in zip(primals, tangents)]
        output = ctx.call(func, duals, {})
        aux = None
        if has_aux:
            output, aux = output
        _checked_outputs(output, "jvp(f, primals, tangents)")
        outs = output if isinstance(output, tuple) else (output,)
        pairs = [forward_ad.unpack_dual(o) for o in outs]
        primal_out = tuple(F.detach(p[0]) if not p[0].requires_grad else p[0] for p in pairs)
        tangent_out = tuple(p[1] if p[1] is not None else F.zeros_for(p[0]) for p in pairs)
    if not isinstance(output, tuple):
        primal_out, tangent_out = primal_out[0], tangent_out[0]
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def _jacobian_by_rows(ctx, func, argnums, has_aux, args: tuple, kwargs: dict):
    """jacrev: one reverse pass per element of the output."""
    nums, keep = _traced(args, argnums)
    with grad_mode(True):
        call_args, output, aux = _call_traced(ctx, func, args, kwargs, nums, has_aux, "jacrev")
        _checked_outputs(output, "vjp(f, *primals)")
        inputs = [call_args[n] for n in nums]
        outs = output if isinstance(output, tuple) else (output,)
        per_output = []
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
            per_output.append(tuple(jac) if isinstance(argnums, tuple) else jac[0])
    result = tuple(per_output) if isinstance(output, tuple) else per_output[0]
    return (result, _finish(aux, keep)) if has_aux else result


def jacrev(ctx, func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    return _wrapper("wrapper_fn", lambda *args, **kwargs: _jacobian_by_rows(
        ctx, func, argnums, has_aux, args, kwargs))


def _jacobian_by_columns(ctx, func, argnums, has_aux, args: tuple):
    """jacfwd: one forward-mode pass per element of each input."""
    nums = _argnums(argnums, len(args))
    per_input, output, aux = [], None, None
    for n in nums:
        x = args[n]
        if not isinstance(x, Tensor):
            raise errors.TorchError("AttributeError", f"'{type_name(x)}' object has no attribute "
                                    "'numel'")
        columns = []
        for k in range(x.numel()):
            basis = F.zeros_for(x)
            flat = basis.data.reshape(-1)
            flat[k] = 1
            tangents = tuple(basis if i == n else F.zeros_for(a) if isinstance(a, Tensor) else a
                             for i, a in enumerate(args))
            result = jvp(ctx, func, tuple(args), tangents, has_aux=has_aux)
            output, tangent = result[0], result[1]
            aux = result[2] if has_aux else None
            columns.append(tangent)
        per_input.append((x, columns))
    outs = output if isinstance(output, tuple) else (output,)
    per_output = []
    for o, out in enumerate(outs):
        jac = []
        for x, columns in per_input:
            cols = [c[o] if isinstance(output, tuple) else c for c in columns]
            stacked = shapes.stack(cols, -1) if cols else F.zeros_of(out.shape + (0,), out.dtype)
            jac.append(shapes.reshape(stacked, out.shape + x.shape))
        per_output.append(tuple(jac) if isinstance(argnums, tuple) else jac[0])
    result = tuple(per_output) if isinstance(output, tuple) else per_output[0]
    return (result, aux) if has_aux else result


def jacfwd(ctx, func, argnums=0, has_aux=False, *, randomness="error"):
    return _wrapper("wrapper_fn", lambda *args, **kwargs: _jacobian_by_columns(
        ctx, func, argnums, has_aux, args))


def hessian(ctx, func, argnums=0):
    inner = jacrev(ctx, func, argnums)
    return jacrev(ctx, inner, argnums)


def _in_dims(in_dims, args: tuple, name: str) -> list:
    if isinstance(in_dims, (int, type(None))):
        return [in_dims] * len(args)
    if not isinstance(in_dims, tuple) or len(in_dims) != len(args):
        raise errors.TorchError(
            "ValueError", f"vmap({name}, in_dims={in_dims!r}, ...)(<inputs>): in_dims is not "
            f"compatible with the structure of `inputs`. in_dims has structure "
            f"{in_dims!r} but inputs has structure {len(args)} inputs.")
    return list(in_dims)


def _vmap(ctx, func, in_dims, out_dims, args: tuple, kwargs: dict):
    name = getattr(func, "name", "<function>")
    dims = _in_dims(in_dims, args, name)
    sizes = []
    for a, d in zip(args, dims):
        if d is not None:
            if not isinstance(a, Tensor):
                raise errors.TorchError(
                    "ValueError", f"vmap({name}, in_dims={in_dims!r}, ...)(<inputs>): Got "
                    f"in_dim={d} for an input but the input is of type {type(a)}. We cannot "
                    "vmap over non-Tensor arguments, please use None as the respective in_dim")
            if not -a.ndim <= d < max(a.ndim, 1):
                raise errors.TorchError(
                    "ValueError", f"vmap({name}, in_dims={in_dims!r}, ...)(<inputs>): Got "
                    f"in_dim={d} for some input, but that input is a Tensor of dimensionality "
                    f"{a.ndim} so expected in_dim to satisfy -{a.ndim} <= in_dim < {a.ndim}.")
            sizes.append(a.shape[d])
    if not sizes:
        raise errors.TorchError("ValueError", f"vmap({name}, in_dims=0, ...)(<inputs>): At "
                                "least one of the inputs must be a Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise errors.TorchError(
            "ValueError", "vmap: Expected all tensors to have the same size in the mapped "
            f"dimension, got sizes {sizes} for the mapped dimension")
    results = []
    for b in range(sizes[0]):
        sliced = [F.select(a, d, b) if d is not None else a for a, d in zip(args, dims)]
        results.append(ctx.call(func, sliced, kwargs))
    first = results[0]
    if isinstance(first, (tuple, list)):
        outs = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(first)
        stacked = [_stack_out([r[i] for r in results], outs[i], name) for i in range(len(first))]
        return tuple(stacked) if isinstance(first, tuple) else stacked
    return _stack_out(results, out_dims, name)


def _stack_out(values: list, out_dim, name: str):
    if isinstance(values[0], dict):
        return {k: _stack_out([v[k] for v in values], out_dim, name) for k in values[0]}
    if not isinstance(values[0], Tensor):
        raise errors.value_error(
            f"vmap({name}, ...): `{name}` must only return Tensors, got type "
            f"{_python_type(values[0])}. Did you mean to set out_dims= to None for output?")
    return shapes.stack(values, out_dim)


def vmap(ctx, func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    return _wrapper("wrapped", lambda *args, **kwargs: _vmap(ctx, func, in_dims, out_dims, args,
                                                             kwargs))


def _slot_of(ctx, module, key) -> tuple:
    """(the table holding `key`'s tensor, its name there): a dotted key walks the children, with
    the errors of torch's get_submodule (a name the module lacks is set all the same)."""
    if not isinstance(key, str):
        raise errors.TorchError("AttributeError", f"'{type_name(key)}' object has no attribute "
                                "'rpartition'")
    if not key:
        message = 'tensor name can\'t be empty string ""'
        raise errors.TorchError("KeyError", repr(message), value_args=(message,))
    prefix, _, name = key.rpartition(".")
    for part in prefix.split(".") if prefix else ():
        child = module.children.get(part)
        if child is None:
            value = module.params.get(part, module.buffers.get(part))
            if value is not None:
                raise errors.type_error(f"submodule `{part}`: {ctx.printer.repr(value)} is not "
                                        "an instance of torch.nn.Module")
            raise errors.TorchError("AttributeError",
                                    f"{module.class_name} has no attribute `{part}`")
        module = child
    return (module.buffers if name in module.buffers else module.params), name


def _merged_dicts(given) -> dict:
    """functional_call's parameter_and_buffer_dicts as one dict: a dict, or a sequence of dicts
    with distinct keys."""
    if isinstance(given, dict):
        return given
    if not isinstance(given, (tuple, list, str)):
        raise errors.value_error("Expected parameter_and_buffer_dicts to be a dict, or a "
                                 f"list/tuple of dicts, but got <class '{type_name(given)}'>")
    if not all(isinstance(part, dict) for part in given):
        raise errors.value_error(
            "Expected all elements of parameter_and_buffer_dicts to be dictionaries")
    counts: dict = {}
    for part in given:
        for key in part:
            counts[key] = counts.get(key, 0) + 1
    repeated = [key for key, count in counts.items() if count > 1]
    if repeated:
        raise errors.value_error(f"{repeated!r} appeared in multiple dictionaries; behavior of "
                                 "functional call is ambiguous")
    return {key: value for part in given for key, value in part.items()}


def functional_call(ctx, module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """Call `module` with the given tensors in place of its parameters and buffers, checked as
    torch checks them: the dicts, then the module, then the keyword arguments."""
    from gradcli.language.namespaces.modules import Module  # not at start-up: nn loads late
    given = _merged_dicts(parameter_and_buffer_dicts)
    if not isinstance(module, Module):
        raise errors.TorchError("AttributeError", f"'{type_name(module)}' object has no attribute "
                                "'named_parameters'")
    if kwargs is not None and not isinstance(kwargs, dict):
        raise errors.type_error(f"{ctx.printer.repr(module)} argument after ** must be a mapping, "
                                f"not {type_name(kwargs)}")
    slots = [(_slot_of(ctx, module, key), value) for key, value in given.items()]
    absent = object()
    saved = [(table_, name, table_.get(name, absent)) for (table_, name), _ in slots]
    for (table_, name), value in slots:
        table_[name] = value
    try:
        call_args = [] if args is None else list(args) if isinstance(args, tuple) else [args]
        return ctx.call(module, call_args, dict(kwargs or {}))
    finally:
        for table_, name, old in reversed(saved):
            if old is absent:
                del table_[name]
            else:
                table_[name] = old


FUNC = Namespace("torch.func", table(
    entry("functional_call", functional_call, "module, parameter_and_buffer_dicts, args=None, "
          "kwargs=None, *, tie_weights=True, strict=False", context=True),
    entry("grad", grad, "func, argnums=0, has_aux=False", context=True),
    entry("grad_and_value", grad_and_value, "func, argnums=0, has_aux=False", context=True),
    entry("vjp", vjp, "func, *primals, has_aux=False", context=True),
    entry("jvp", jvp, "func, primals, tangents, *, strict=False, has_aux=False", context=True),
    entry("jacrev", jacrev, "func, argnums=0, *, has_aux=False, chunk_size=None, "
          "_preallocate_and_copy=False", context=True),
    entry("jacfwd", jacfwd, "func, argnums=0, has_aux=False, *, randomness='error'",
          context=True),
    entry("hessian", hessian, "func, argnums=0", context=True),
    entry("vmap", vmap, "func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None",
          context=True),
))

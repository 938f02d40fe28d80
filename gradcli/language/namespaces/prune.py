"""torch.nn.utils.prune's functions, as torch's Python code writes them over its pruning
classes (pruning_methods.py): apply a method to a module's tensor, prune a whole set of
tensors at once (global_unstructured), make pruning permanent (remove) and ask is_pruned."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces import pruning_methods as P
from gradcli.language.namespaces.distribution_base import Calls
from gradcli.language.namespaces.nn_utils import parameters_to_vector
from gradcli.language.runtime import protocols
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, iterate, type_name


def _applying(function: str, kind: P.Kind, spec: str):
    """A function that applies `kind` to `module.name` and returns the module."""
    scored = spec.endswith("importance_scores=None")

    def run(ctx, module, name, *args):
        if scored:
            args, scores = args[:-1], {"importance_scores": args[-1]}
        ctx.call(BoundMethod(kind.type, kind.apply), [module, name, *args],
                 scores if scored else {})
        return module
    return entry(function, run, "module, name" + spec, context=True)


def _pairs(parameters) -> list:
    """(module, name) for each entry, unpacked as Python's `for (module, name) in ...`."""
    out = []
    for item in iterate(parameters):
        try:
            pair = tuple(iterate(item))
        except errors.TorchError:
            if isinstance(item, Tensor):
                raise
            raise errors.type_error(f"cannot unpack non-iterable {type_name(item)} object") \
                from None
        if len(pair) != 2:
            raise errors.value_error("too many values to unpack (expected 2)" if len(pair) > 2
                                     else
                                     f"not enough values to unpack (expected 2, got {len(pair)})")
        out.append(pair)
    return out


def global_unstructured(ctx, parameters, pruning_method, importance_scores=None, **kwargs):
    """One unstructured mask over all the tensors' entries together, applied to each as a
    CustomFromMask."""
    try:
        if not isinstance(parameters, Tensor):
            iterate(parameters)
    except errors.TorchError:
        raise errors.type_error("global_unstructured(): parameters is not an Iterable") from None
    importance_scores = {} if importance_scores is None else importance_scores
    if not isinstance(importance_scores, dict):
        raise errors.type_error("global_unstructured(): importance_scores must be of type dict")
    calls = Calls(ctx)
    scores = parameters_to_vector([
        importance_scores.get((module, name), P.get(module, name))
        for module, name in _pairs(parameters)])
    default_mask = parameters_to_vector([
        _mask_or(calls, module, name) for module, name in _pairs(parameters)])
    container = ctx.call(P.CONTAINER.type, [], {})
    container.set_attribute("_tensor_name", "temp")
    method = ctx.call(pruning_method, [], kwargs)
    method.set_attribute("_tensor_name", "temp")
    if P.get(method, "PRUNING_TYPE") != "unstructured":
        raise errors.type_error(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"{ctx.printer.str(pruning_method)} of type "
            f"{ctx.printer.str(P.get(method, 'PRUNING_TYPE'))}")
    P.call(ctx, container, "add_pruning_method", method)
    final_mask = P.call(ctx, container, "compute_mask", scores, default_mask)
    pointer = 0
    for module, name in _pairs(parameters):
        param = P.get(module, name)
        count = calls.method(param, "numel")
        piece = protocols.get_item(final_mask, slice(pointer, pointer + count))
        custom_from_mask(ctx, module, name, calls.method(piece, "view_as", param))
        pointer += count


def _mask_or(calls: Calls, module, name: str):
    """getattr(module, name + "_mask", torch.ones_like(getattr(module, name)))."""
    ones = calls.torch("ones_like", P.get(module, name))
    return P.get(module, name + "_mask") if P.has(module, name + "_mask") else ones


def custom_from_mask(ctx, module, name, mask):
    ctx.call(BoundMethod(P.CUSTOM_FROM_MASK.type, P.CUSTOM_FROM_MASK.apply), [module, name, mask],
             {})
    return module


def remove(ctx, module, name):
    """Make the pruning of `name` permanent and drop its hook."""
    P.get(module, "_forward_pre_hooks")
    for hook in P.pruning_hooks(module):
        if P.same(P.get(hook.fn, "_tensor_name"), name):
            P.call(ctx, hook.fn, "remove", module)
            module.hooks["forward_pre"].remove(hook)
            return module
    raise errors.value_error(f"Parameter '{ctx.printer.format(name, '')}' of module {ctx.printer.str(module)} has to be "
                             "pruned before pruning can be removed")


def is_pruned(ctx, module) -> bool:
    for _, each in iterate(P.call(ctx, module, "named_modules")):
        P.get(each, "_forward_pre_hooks")
        if P.pruning_hooks(each):
            return True
    return False


PRUNE = Namespace(P.PATH, {kind.name: kind.type for kind in P.KINDS} | table(
    _applying("identity", P.IDENTITY, ""),
    _applying("random_unstructured", P.RANDOM_UNSTRUCTURED, ", amount"),
    _applying("l1_unstructured", P.L1_UNSTRUCTURED, ", amount, importance_scores=None"),
    _applying("random_structured", P.RANDOM_STRUCTURED, ", amount, dim"),
    _applying("ln_structured", P.LN_STRUCTURED, ", amount, n, dim, importance_scores=None"),
    entry("global_unstructured", global_unstructured,
          "parameters, pruning_method, importance_scores=None, **kwargs", context=True),
    entry("custom_from_mask", custom_from_mask, "module, name, mask", context=True),
    entry("remove", remove, "module, name", context=True),
    entry("is_pruned", is_pruned, "module", context=True),
))

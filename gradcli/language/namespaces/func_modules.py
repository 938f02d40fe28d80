"""torch.func's module helpers: functional_call and stack_module_state."""

from __future__ import annotations

from gradcli.engine import errors, grad_api
from gradcli.engine.functions import F
from gradcli.engine.ops import shapes
from gradcli.language.runtime.values import type_name


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
    if tie_weights:
        given = _untied(module, given)
    if strict:
        _check_keys(module, given)
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


def _untied(module, given: dict) -> dict:
    """torch's _untie_named_tensors_map: a value given for one of the names sharing a tensor
    goes to all of them; different values for such names are refused."""
    from gradcli.language.namespaces.modules import _named_buffers
    names_of: dict = {}
    for name, tensor in (module.named_parameters(remove_duplicate=False)
                         + _named_buffers(module, remove_duplicate=False)):
        names_of.setdefault(id(tensor), []).append(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    untied = dict(given)
    for key in [key for key in given if key in tied]:
        names = tied[key]
        if len({id(given[name]) for name in names if name in given}) > 1:
            raise errors.value_error(f"functional_call got multiple values for keys "
                                     f"{sorted(names)!r}, which are tied. Consider using "
                                     "tie_weights=False")
        untied.update({name: given[key] for name in names})
    return untied


def _check_keys(module, given: dict) -> None:
    """functional_call(strict=True): the keys must be exactly the module's tensors' names."""
    from gradcli.language.namespaces.modules import _named_buffers
    valid = {name for name, _ in module.named_parameters(remove_duplicate=False)}
    valid |= {name for name, _ in _named_buffers(module, remove_duplicate=False)}
    messages = []
    unexpected, missing = sorted(set(given) - valid), sorted(valid - set(given))
    if unexpected:
        messages.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        messages.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if messages:
        raise errors.runtime(f"Error(s) in reparametrizing for {module.class_name}:\n\t"
                             + "\n\t".join(messages))


def stack_module_state(models) -> tuple:
    """(params, buffers): each name's tensors of `models` stacked, the parameters as new leaves."""
    from gradcli.language.namespaces.modules import Module, _named_buffers
    if not isinstance(models, (Module, list, tuple)):
        raise errors.type_error(f"object of type '{type_name(models)}' has no len()")
    models = models.members() if isinstance(models, Module) else list(models)
    for m in models:
        if not isinstance(m, Module):
            raise errors.TorchError("AttributeError", f"'{type_name(m)}' object has no attribute "
                                    "'training'")
    if not models:
        raise errors.runtime("stack_module_state: Expected at least one model, got 0.")
    modes = {bool(m.attrs["training"]) for m in models}
    if len(modes) > 1:
        raise errors.runtime("stack_module_state: Expected all models to have the same "
                             "training/eval mode.")
    if any(m.language_type is not models[0].language_type for m in models):
        raise errors.runtime("stack_module_state: Expected all models to be of the same class.")
    params = [dict(m.named_parameters()) for m in models]
    buffers = [dict(_named_buffers(m)) for m in models]
    return ({k: _stacked_leaf([p[k] for p in params], k) for k in params[0]},
            {k: _stacked_leaf([b[k] for b in buffers], k) for k in buffers[0]})


def _stacked_leaf(tensors: list, name: str):
    flags = {t.requires_grad for t in tensors}
    if len(flags) > 1:
        raise errors.runtime(f"Expected {name} from each model to have the same .requires_grad")
    result = shapes.stack(tensors, 0)
    return grad_api.requires_grad_(F.detach(result), True) if True in flags else result

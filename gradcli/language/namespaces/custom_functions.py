"""torch.autograd.Function subclasses written in the program: ctx, apply, and their grad_fn.

`Fn.apply(*args)` runs the user's forward without recording a graph, then gives its outputs a
FunctionNode (engine/custom.py) whose backward calls the user's backward with the same ctx.
"""

from __future__ import annotations

from gradcli.engine import errors, forward_ad, grad_api, saved_hooks, vmap_batched
from gradcli.engine.autograd import modified_message
from gradcli.engine.custom import FunctionNode, attach_output, returned_input
from gradcli.engine.functions import F
from gradcli.engine.state import STATE, grad_mode
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import BoundMethod, UserFunction
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
          "after they have already been freed). Saved intermediate values of the graph are freed "
          "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
          "backward through the graph a second time or if you need to access saved tensors after "
          "calling backward.")


class FunctionCtx(TableObject):
    """The `ctx` of a custom Function: its methods, and any attribute the program sets."""

    __slots__ = ("attrs", "saved", "freed", "needs_input_grad", "dirty", "non_differentiable",
                 "materialize", "packed", "versions", "for_forward", "in_jvp", "kept")

    def __init__(self, needs_input_grad: tuple):
        self.attrs: dict = {}
        self.saved, self.freed, self.needs_input_grad = (), False, needs_input_grad
        self.dirty, self.non_differentiable, self.materialize = (), (), True
        self.packed = None  # the saved tensors as saved_tensors_hooks packed them
        self.versions = ()  # the saved tensors' versions once forward returned
        self.for_forward, self.in_jvp = (), False  # save_for_forward's, read by jvp only
        self.kept = False  # what save_for_backward took is kept once a graph is built

    @property
    def language_type(self) -> PyType:
        return CTX_TYPE

    def attribute(self, name: str):
        if name in self.attrs:
            return self.attrs[name]
        if name == "saved_tensors":
            if self.in_jvp:
                return self.for_forward
            if self.freed:
                raise errors.runtime(_FREED)
            if not self.kept:  # inside forward, or no graph: torch's ctx holds none
                return ()
            if self.packed is not None:
                return saved_hooks.unpack_values(self.packed, self.saved)
            for tensor, version in zip(self.saved, self.versions):
                if version is not None and tensor._version != version:
                    raise errors.runtime(modified_message(tensor, version, None))
            return self.saved
        if name == "needs_input_grad":
            return self.needs_input_grad
        method = CTX_METHODS.get(name)
        if method is None:
            raise self.missing(name)
        return BoundMethod(self, method)

    def set_attribute(self, name: str, value) -> None:
        if name in ("saved_tensors", "needs_input_grad"):
            raise errors.TorchError("AttributeError", f"attribute '{name}' of "
                                    "'torch._C._FunctionBase' objects is not writable")
        self.attrs[name] = value

    def delete_attribute(self, name: str) -> None:
        if name == "saved_tensors":
            raise errors.TorchError("AttributeError", "attribute 'saved_tensors' of "
                                    "'torch._C._FunctionBase' objects is not writable")
        if name not in self.attrs:
            raise self.missing(name)
        del self.attrs[name]

    def repr(self, printer) -> str:
        return f"<torch.autograd.function.{self.class_name} object at 0x{id(self):x}>"


def _check_saved(values) -> None:
    for index, value in enumerate(values):
        if value is not None and not isinstance(value, Tensor):
            raise errors.type_error("save_for_backward can only save variables, but argument "
                                    f"{index} is of type {type(value).__name__}")


def _save_for_backward(ctx: FunctionCtx, *tensors) -> None:
    ctx.saved = tensors  # checked once forward returns, and only when a graph is built


def _save_for_forward(ctx: FunctionCtx, *tensors) -> None:
    if not all(t is None or isinstance(t, Tensor) for t in tensors):
        raise errors.TorchError("AssertionError", "save_for_forward expects all arguments to be "
                                "tensors; you should save non-tensors as attributes on ctx.")
    ctx.for_forward = tensors


def _mark_dirty(ctx: FunctionCtx, *tensors) -> None:
    ctx.dirty = tensors


def _mark_non_differentiable(ctx: FunctionCtx, *tensors) -> None:
    ctx.non_differentiable = tensors


def _set_materialize_grads(ctx: FunctionCtx, value) -> None:
    ctx.materialize = bool(value)


CTX_METHODS = table(
    entry("save_for_backward", _save_for_backward, "self, *tensors"),
    entry("save_for_forward", _save_for_forward, "self, *tensors"),
    entry("mark_dirty", _mark_dirty, "self, *args"),
    entry("mark_non_differentiable", _mark_non_differentiable, "self, *args"),
    entry("set_materialize_grads", _set_materialize_grads, "self, value"),
)
CTX_TYPE = PyType("torch.autograd.function.FunctionCtx", (FunctionCtx,))


class _FunctionHost:
    """The host class `isinstance` sees for torch.autograd.Function."""


FUNCTION_TYPE = PyType("torch.autograd.function.Function", (_FunctionHost,))


def _static(cls: classes.UserClass, name: str):
    found = cls.find(name)
    if found is classes.MISSING:
        return None
    return found.function if isinstance(found, (classes.StaticMethod, classes.ClassMethod)) \
        else found


_NEEDS_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
    "...), it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html")


def _apply(cls: classes.UserClass, *args, **kwargs):
    """Fn.apply(*args): forward without a graph, then one FunctionNode over the outputs."""
    runtime = cls.runtime
    forward, setup = _static(cls, "forward"), _static(cls, "setup_context")
    if forward is None:
        raise errors.TorchError("NotImplementedError", "You must implement the forward function "
                                "for custom autograd.Function.")
    if setup is None and STATE.func_transforms:
        raise errors.runtime(_NEEDS_SETUP_CONTEXT)
    if "vmap" in STATE.func_transforms and _static(cls, "vmap") is None and \
            cls.find("generate_vmap_rule") in (classes.MISSING, False):
        raise errors.runtime(f"You tried to vmap over {cls.name}, but it does not have vmap "
                             "support. Please override and implement the vmap staticmethod or "
                             "set generate_vmap_rule=True. For more details, please see "
                             "https://pytorch.org/docs/main/notes/extending.func.html")
    if setup is not None and isinstance(forward, UserFunction):
        args, kwargs = _bind_default_args(forward, args, kwargs)
    ctx = FunctionCtx(tuple(isinstance(a, Tensor) and a.requires_grad for a in args))
    own_vmap_rule = "vmap" in STATE.func_transforms and _static(cls, "vmap") is not None
    # torch's forward sees no tangents, and with the Function's own vmap rule whole tensors
    with grad_mode(False), forward_ad.suspended(), vmap_batched.suspended(own_vmap_rule):
        if setup is not None:
            output = runtime.call(forward, list(args), kwargs)
            runtime.call(setup, [ctx, tuple(args), output], {})
        else:
            output = runtime.call(forward, [ctx, *args], kwargs)
    if STATE.dual_level is not None and _static(cls, "jvp") is None and any(
            isinstance(a, Tensor) and a._fw_grad is not None for a in args):
        raise errors.TorchError("NotImplementedError", "You must implement the jvp function for "
                                "custom autograd.Function to use it with forward mode AD.")
    single = not isinstance(output, tuple)
    outputs = (output,) if single else output
    _mark_dirty_outputs(ctx, outputs)
    needs_graph = STATE.grad_enabled and any(ctx.needs_input_grad)
    results = tuple(_fresh_output(o, args, ctx, needs_graph) for o in outputs)
    if own_vmap_rule and STATE.vmap_batched is not None:
        vmap_batched.spread(args, results)
    if needs_graph:
        _check_saved(ctx.saved)
        backward, vjp = _static(cls, "backward"), _static(cls, "vjp")
        tensors = [o for o in results if isinstance(o, Tensor)]

        def run_backward(grads):
            if backward is not None and vjp is not None:
                raise errors.runtime("Implementing both 'backward' and 'vjp' for a custom Function "
                                     "is not allowed. You should only implement one of them.")
            if backward is None and vjp is None:
                raise errors.TorchError("NotImplementedError", "You must implement either the "
                                        "backward or vjp method for your custom autograd.Function "
                                        "to use it with backward mode AD.")
            if ctx.freed:
                raise errors.runtime(_FREED)
            given = iter(grads)  # a non-tensor output's gradient is None
            grads = [next(given) if isinstance(o, Tensor) else None for o in results]
            return runtime.call(backward or vjp, [ctx, *grads], {})

        def release():
            ctx.freed = True

        node = FunctionNode(f"{cls.name}Backward", args, tuple(tensors), run_backward,
                            release, ctx.materialize)
        node.context = ctx
        originals = [o for o in outputs if isinstance(o, Tensor)]  # what forward marked
        for nr, (out, original) in enumerate(zip(tensors, originals)):
            if _differentiable(original, ctx):
                attach_output(out, node, nr)
        ctx.packed = saved_hooks.pack_values(ctx.saved)
        ctx.kept = True
    ctx.versions = tuple(t._version if isinstance(t, Tensor) else None for t in ctx.saved)
    if STATE.dual_level is not None and any(isinstance(a, Tensor) and a._fw_grad is not None
                                            for a in args):
        _forward_tangents(cls, ctx, args, results)
    return results[0] if single else results


def _forward_tangents(cls: classes.UserClass, ctx: FunctionCtx, args: tuple,
                      results: tuple) -> None:
    """The user's jvp on the inputs' tangents (None where an input has none), reading
    save_for_forward's tensors as ctx.saved_tensors; each output takes the tangent returned."""
    tangents = [a._fw_grad if isinstance(a, Tensor) else None for a in args]
    ctx.in_jvp = True
    try:
        with forward_ad.suspended():
            returned = cls.runtime.call(_static(cls, "jvp"), [ctx, *tangents], {})
    finally:
        ctx.in_jvp, ctx.for_forward = False, ()
    for result, tangent in zip(results, returned if isinstance(returned, tuple) else (returned,)):
        if isinstance(result, Tensor) and isinstance(tangent, Tensor):
            forward_ad.hold(result, tangent)


def _bind_default_args(function: UserFunction, args: tuple, kwargs: dict) -> tuple:
    """Function.apply's bind_default_args (inspect.signature(forward).bind, then
    apply_defaults): every positional parameter as an argument, in inspect's words."""
    params, defaults = function.params, function.defaults
    if len(args) > len(params) and function.star is None:
        raise errors.type_error("too many positional arguments")
    rest = dict(kwargs)
    bound = list(args[:len(params)])
    for name in params[len(bound):]:
        if name in rest:
            bound.append(rest.pop(name))
        elif name in defaults:
            bound.append(defaults[name])
        else:
            raise errors.type_error(f"missing a required argument: '{name}'")
    for name in params[:len(args)]:
        if name in rest:
            raise errors.type_error(f"multiple values for argument '{name}'")
    keywords = {}
    for name in function.kwonly:
        if name in rest:
            keywords[name] = rest.pop(name)
        elif name in defaults:
            keywords[name] = defaults[name]
        else:
            raise errors.type_error(f"missing a required argument: '{name}'")
    if rest and function.star_star is None:
        raise errors.type_error(f"got an unexpected keyword argument '{next(iter(rest))}'")
    return tuple(bound) + tuple(args[len(params):]), keywords | rest


def _differentiable(out: Tensor, ctx: FunctionCtx) -> bool:
    return out.dtype.is_floating_point and not any(out is n for n in ctx.non_differentiable)


def _fresh_output(value, args: tuple, ctx: FunctionCtx, needs_graph: bool):
    """An output that is one of the inputs (and not marked dirty) is returned as a new tensor
    over the same values, as torch's custom Functions do."""
    if isinstance(value, Tensor) and any(value is a for a in args) and not any(
            value is d for d in ctx.dirty):
        return returned_input(value, needs_graph and _differentiable(value, ctx))
    return value


def _function_attribute(cls: classes.UserClass, name: str):
    """Attributes a Function subclass inherits from torch.autograd.Function."""
    if name == "apply":
        return BoundMethod(cls, _APPLY)
    return classes.MISSING


def _mark_dirty_outputs(ctx: FunctionCtx, outputs: tuple) -> None:
    """Tensors the forward marked dirty: torch bumps their version once more, refuses a leaf
    that requires grad among the outputs, and any dirty tensor that is not an output."""
    for tensor in ctx.dirty:
        returned = any(tensor is o for o in outputs)
        if returned and tensor.requires_grad and tensor.grad_fn is None:
            raise errors.runtime("a leaf Variable that requires grad has been used in an "
                                 "in-place operation.")
        tensor.bump_version()
        if not returned:
            raise errors.runtime("Some elements marked as dirty during the forward method were "
                                 "not returned as output. The inputs that are modified inplace "
                                 "must all be outputs of the Function.")


_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


def _once_differentiable(fn):
    """@once_differentiable: the backward runs without recording a graph; when its gradients
    require grad, its results get a node (`<Error>`) that refuses to be differentiated."""
    def run(ctx, *args):
        with grad_mode(False):
            outputs = ctx.call(fn, list(args), {})
        if not STATE.grad_enabled or not any(isinstance(a, Tensor) and a.requires_grad
                                             for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        results = tuple(F.detach(o) if isinstance(o, Tensor) else o
                        for o in ((outputs,) if single else outputs))
        tensors = tuple(r for r in results if isinstance(r, Tensor))

        def refuse(grads):
            raise errors.runtime(_TWICE)
        node = FunctionNode("Error", tuple(grad_api.requires_grad_(F.detach(t), True)
                                           for t in tensors), tensors, refuse)
        for nr, tensor in enumerate(tensors):
            tensor._grad_fn, tensor.output_nr, tensor._requires_grad = node, nr, True
        return results[0] if single else results
    return entry(getattr(fn, "name", "backward"), run, "*args", context=True)


_APPLY = entry("apply", _apply, "cls, *args, **kwargs", qualname="Function.apply")
classes.BASE_CLASS_ATTRIBUTES[FUNCTION_TYPE] = _function_attribute

_LEGACY = ("Legacy autograd function with non-static forward method is deprecated. Please use "
           "new-style autograd function with static forward method. (Example: "
           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


def _refuse_legacy_call(*args, **kwargs):
    raise errors.runtime(_LEGACY)


class FunctionInstance(classes.Instance):
    """An instance of a Function subclass (old code's `MyReLU()(x)`): torch warns when it is
    made, gives it the class's apply, and refuses to call it as a legacy Function."""

    __slots__ = ()

    def host_attribute(self, name: str):
        return BoundMethod(self.cls, _APPLY) if name == "apply" else classes.MISSING

    def forward(self):
        found = self.dunder("__call__")
        return entry("__call__", _refuse_legacy_call, "*args, **kwargs",
                     qualname="Function.__call__") if found is None else found


def _function_init(instance: FunctionInstance, *args, **kwargs) -> None:
    """Function.__init__, which only warns."""
    STATE.warn("DeprecationWarning", f"{instance.cls.runtime.printer.repr(instance.cls)} should "
               "not be instantiated. Methods on autograd functions are all static, so you should "
               "invoke them on the class itself. Instantiating an autograd function will raise an "
               "error in a future version of PyTorch.")


def _function_instance(cls: classes.UserClass, args) -> FunctionInstance:
    made = FunctionInstance(cls)
    if cls.find("__init__") is classes.MISSING:  # (its own __init__ reaches the base's by super)
        _function_init(made)
    return made


classes.BASE_INSTANCES[FUNCTION_TYPE] = _function_instance
classes.BASE_INITS[FUNCTION_TYPE] = entry("__init__", _function_init, "self, *args, **kwargs",
                                          qualname="Function.__init__")

FUNCTION_MODULE = Namespace("torch.autograd.function", {
    "Function": FUNCTION_TYPE, "FunctionCtx": CTX_TYPE,
    "once_differentiable": entry("once_differentiable", _once_differentiable, "fn"),
})

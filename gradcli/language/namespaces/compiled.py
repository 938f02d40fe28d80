"""torch.compile as a pass-through: the function or module runs eagerly, with torch's checks of
the arguments, its OptimizedModule wrapper around a module, and the one
`CompiledFunctionBackward` node that an AOT-compiling backend puts over the outputs."""

from __future__ import annotations

from gradcli.engine.records import replace

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.distribution_base import VALIDATE_FLAG
from gradcli.language.namespaces.module_hooks import identity_nodes
from gradcli.language.namespaces.modules import MODULE_METHODS, Module, ModuleKind
from gradcli.language.runtime import attributes, protocols
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.frames import BoundMethod, Frame, UserFunction
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import qualified_type_name

# torch._dynamo.list_backends(None); those that trace the graph through AOTAutograd label the
# outputs' grad_fn CompiledFunctionBackward
BACKENDS = ("aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
            "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts",
            "cudagraphs", "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager",
            "eager_debug", "eager_noexcept", "inductor", "invoke_subgraph",
            "non_leaf_compile_error_TESTING_ONLY", "openxla", "openxla_eval",
            "pre_dispatch_eager", "relu_accuracy_error_TESTING_ONLY",
            "relu_compile_error_TESTING_ONLY", "relu_runtime_error_TESTING_ONLY", "ts", "tvm")
NOT_AOT = ("eager", "eager_debug", "eager_noexcept", "pre_dispatch_eager")
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


class InvalidBackend(RuntimeError):
    """torch._dynamo.exc.InvalidBackend: a backend name torch does not know."""


register_exception(PyType("torch._dynamo.exc.InvalidBackend", (InvalidBackend,)))


def _labelled(result):
    """The outputs of a compiled region: those computed with grad behind one
    CompiledFunctionBackward node (a tensor, or the tensors of a tuple or list)."""
    values = result if isinstance(result, (tuple, list)) else (result,)
    computed = [i for i, v in enumerate(values) if isinstance(v, Tensor) and v.grad_fn is not None]
    if not computed:
        return result
    labelled, _ = identity_nodes(tuple(values[i] for i in computed), None,
                                 "CompiledFunctionBackward", views=False)
    out = list(values)
    for i, value in zip(computed, labelled):
        out[i] = value
    if not isinstance(result, (tuple, list)):
        return out[0]
    return type(result)(out) if type(result) in (tuple, list) else result


class OptimizedModuleHost(Module):
    """torch._dynamo's OptimizedModule: the module under `_orig_mod`; nn.Module's methods are
    its own, every other attribute is the original module's."""

    __slots__ = ("aot",)

    @property
    def original(self) -> Module:
        return self.children["_orig_mod"]

    def attribute(self, name: str):
        if name == "training":
            return self.original.attribute("training")
        if name in self.children or name in self.attrs or name in MODULE_METHODS:
            return Module.attribute(self, name)
        if name == "forward":
            return self.forward_method()
        return attributes.get(self.original, name)

    def set_attribute(self, name: str, value) -> None:
        if name in MODULE_METHODS or name == "forward":
            Module.set_attribute(self, name, value)
        else:
            attributes.set(self.original, name, value)

    def delete_attribute(self, name: str) -> None:
        if name in MODULE_METHODS or name in self.attrs and name != "training":
            Module.delete_attribute(self, name)
        else:
            self.original.delete_attribute(name)

    def forward_method(self):
        if "forward" in self.attrs:
            return self.attrs["forward"]
        return BoundMethod(self, _CALL)


def _call(ctx, wrapper: OptimizedModuleHost, *args, **kwargs):
    result = ctx.call(wrapper.original, list(args), kwargs)
    return _labelled(result) if wrapper.aot else result


_CALL = entry("forward", _call, "self, *args, **kwargs", context=True,
              qualname="OptimizedModule.forward")
KIND = ModuleKind("OptimizedModule", "", "", lambda ctx, m, *inputs: None, "*args",
                  host=OptimizedModuleHost, path="torch._dynamo.eval_frame")


def _compiled_function(function: UserFunction, aot: bool) -> UserFunction:
    """A new function object running `function`'s body (its outputs labelled when `aot`)."""
    body = function.body
    if not aot or function.generator:
        return replace(function)
    return replace(function, body=lambda frame: _labelled(body(frame)))


def compile_(ctx, model=None, fullgraph=False, dynamic=None, backend=None, mode=None,
             options=None, name=None, disable=False, recompile_limit=None,
             isolate_recompiles=False, shapes_spec=None):
    """torch.compile: the model wrapped to run eagerly, or (model None) a decorator."""
    backend = "inductor" if backend is None else backend
    if model is None:
        def decorate(model):
            if model is None:
                raise errors.runtime("Model can't be None")
            return compile_(ctx, model, fullgraph, dynamic, backend, mode, options, name,
                            disable, recompile_limit, isolate_recompiles, shapes_spec)
        return UserFunction("fn", "compile.<locals>.fn", ("model",), {},
                            lambda frame: decorate(frame.vars["model"]), Frame())
    if mode is not None and options is not None:
        raise errors.runtime("Either mode or options can be specified, but both can't be "
                             "specified at the same time.")
    mode = "default" if mode is None and options is None else mode
    if disable:
        return model
    if isinstance(backend, str) and backend not in BACKENDS:
        raise errors.TorchError("InvalidBackend", f"Invalid backend: '{backend}', see "
                                "`torch._dynamo.list_backends()` for available backends.")
    if backend == "inductor" and mode is not None and mode not in MODES:
        raise errors.runtime(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    # compiling patches torch for the rest of the process, turning off (among others) the
    # distributions' argument checks (torch._dynamo's TorchPatcher)
    STATE.flags[VALIDATE_FLAG] = False
    aot = isinstance(backend, str) and backend not in NOT_AOT
    if isinstance(model, Module):
        wrapper = OptimizedModuleHost(KIND)
        wrapper.aot = aot
        wrapper.children["_orig_mod"] = model
        return wrapper
    if not protocols.is_callable(model):
        raise errors.TorchError("AssertionError", "A callable function is expected, but "
                                f"<class '{qualified_type_name(model)}'> is provided.")
    if isinstance(model, UserFunction):
        return _compiled_function(model, aot)
    return model

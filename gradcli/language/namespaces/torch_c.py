"""torch._C: the few of torch's C bindings that code deriving from torch.Tensor reaches for:
the managers that turn the __torch_function__ protocol off (DisableTorchFunctionSubclass for
the classes' handlers, DisableTorchFunction for modes too), whether it is on, the
has_torch_function checks, and _disabled_torch_function_impl, the handler that opts a class
out (its results stay plain tensors)."""

from __future__ import annotations

from contextlib import ExitStack

from gradcli.language.runtime import subclass_protocol, tensor_subclasses
from gradcli.language.runtime.frames import ContextManager
from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def _disabling(name: str, modes_too: bool) -> PyType:
    """A manager class: within the block, calls run as they are (handlers of subclasses
    skipped; entered modes too where `modes_too`)."""
    def make() -> ContextManager:
        stack = ExitStack()

        def enter() -> None:
            stack.enter_context(tensor_subclasses.protocol_off())
            if modes_too:
                stack.enter_context(tensor_subclasses.modes_set([]))

        return ContextManager(enter, stack.close, label=f"torch._C.{name}")
    return PyType(f"torch._C.{name}", (), entry(name, make, ""))


def _entries() -> dict:
    # loaded when a program first uses torch._C
    from gradcli.language.namespaces.math_table import NN_FUNCTIONAL
    checks = {f"_{name}": NN_FUNCTIONAL.table[name] for name in (
        "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic")}
    return checks | {name: _disabling(name, name == "DisableTorchFunction") for name in (
        "DisableTorchFunctionSubclass", "DisableTorchFunction")} | table(
        entry("_is_torch_function_enabled", lambda: not tensor_subclasses.STATUS.off_depth, ""),
    ) | {"_disabled_torch_function_impl": subclass_protocol.DISABLED_HANDLER}


TORCH_C = Namespace("torch._C", LazyTable({}, _entries))

"""Python's `types` module as scripts use it: SimpleNamespace, the attribute bag course notebooks
keep hyperparameters in, printed, compared and refused as CPython's does."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.python_argparse import ArgsNamespace
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import Namespace


class SimpleNamespace(ArgsNamespace):
    """types.SimpleNamespace: keyword arguments as attributes, shown as `namespace(a=1)`."""

    __slots__ = ()
    _showing: set = set()  # the namespaces being shown, for `namespace(...)` on recursion

    @property
    def language_type(self) -> PyType:
        return SIMPLE_NAMESPACE_TYPE

    @property
    def class_name(self) -> str:  # a C type: Python's messages name it by its tp_name
        return SIMPLE_NAMESPACE_TYPE.name

    def operator(self, op: str, other, reflected: bool, inplace: bool = False):
        return NotImplemented  # no `in`, unlike argparse.Namespace

    def __eq__(self, other):  # equal to another SimpleNamespace with the same attributes
        return self.attrs == other.attrs if isinstance(other, SimpleNamespace) else NotImplemented

    __hash__ = None

    def repr(self, printer) -> str:
        if id(self) in self._showing:
            return "namespace(...)"
        self._showing.add(id(self))
        try:
            return "namespace(" + ", ".join(
                f"{k}={printer.repr(v)}" for k, v in self.attrs.items()) + ")"
        finally:
            self._showing.discard(id(self))


def _simple_namespace(*args, **kwargs) -> SimpleNamespace:
    if args:
        raise errors.type_error("no positional arguments expected")
    return SimpleNamespace(dict(kwargs))


SIMPLE_NAMESPACE_TYPE = PyType("types.SimpleNamespace", (SimpleNamespace,), entry(
    "SimpleNamespace", _simple_namespace, "*args, **kwargs", frames=0))
TYPES = Namespace("types", {"SimpleNamespace": SIMPLE_NAMESPACE_TYPE})

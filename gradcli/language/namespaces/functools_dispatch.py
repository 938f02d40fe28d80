"""functools.singledispatch: a function of the program that picks an implementation by the class
of its first argument, implementations registered for classes named explicitly."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry


def _is_class(value) -> bool:
    return isinstance(value, (PyType, classes.UserClass))


class SingleDispatch(TableObject):
    """What @singledispatch makes of a function: `register`, `dispatch` and `registry`, calls
    going to the implementation of the most derived registered class of the first argument."""

    __slots__ = ("ctx", "registry")

    def __init__(self, ctx, function):
        self.ctx = ctx
        self.registry = {classes.OBJECT: function}

    @property
    def language_type(self):
        return protocols.type_of(self.registry[classes.OBJECT])

    def dispatch(self, cls):
        """The implementation for instances of `cls`: its most derived registered class's."""
        from gradcli.language.namespaces.builtins import _issubclass
        matching = [c for c in self.registry if c is classes.OBJECT or _issubclass(cls, c)]
        best = next(c for c in matching if all(
            c is other or other is classes.OBJECT or _issubclass(c, other) for other in matching))
        return self.registry[best]

    def _register(self, cls, func=None):
        if func is not None or not _is_class(cls):
            if not _is_class(cls):  # @f.register on a function: its annotation names the class
                raise errors.TorchError("NotImplementedError", "gradcli does not support "
                                        "singledispatch's register by annotation yet: name "
                                        "the class, @f.register(int)")
            self.registry[cls] = func
            return func
        return entry("register", lambda function: self._register(cls, function), "func")

    def attribute(self, name: str):
        if name == "register":
            return entry("register", self._register, "cls, func=None",
                         qualname="singledispatch.register")
        if name == "dispatch":
            return entry("dispatch", self.dispatch, "cls")
        if name == "registry":
            return dict(self.registry)
        raise errors.TorchError("AttributeError",
                                f"'function' object has no attribute '{name}'")

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError",
                                f"'function' object attribute '{name}' is read-only")

    def forward(self):
        def call(me, *args, **kwargs):
            if not args:
                raise errors.type_error(f"{me.registry[classes.OBJECT].name} requires at least "
                                        "1 positional argument")
            implementation = me.dispatch(protocols.type_of(args[0]))
            return me.ctx.call(implementation, list(args), kwargs)
        return BoundMethod(self, entry("singledispatch", call, "self, *args, **kwargs",
                                       frames=0))

    def repr(self, printer) -> str:
        return printer.repr(self.registry[classes.OBJECT])

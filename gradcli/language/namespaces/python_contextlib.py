"""Python's `contextlib`: contextmanager over the program's generator functions, nullcontext and
suppress, as context managers of the `with` statement."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import exceptions
from gradcli.language.runtime.frames import ContextManager, GradRuntimeError, UserFunction
from gradcli.language.runtime.generators import GeneratorObject
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name


class _Manager(TableObject):
    """A context manager contextlib makes: `with` runs its ContextManager."""

    __slots__ = ("manager",)
    type_name = ""

    def __init__(self, manager: ContextManager):
        self.manager = manager

    @property
    def language_type(self):
        return _TYPES[self.type_name]

    def attribute(self, name: str):
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("NotImplementedError", f"gradcli does not let a program set "
                                f"attributes of contextlib.{self.type_name}")

    def context(self):
        return self.manager

    def repr(self, printer) -> str:
        return f"<contextlib.{self.type_name} object at 0x{id(self):x}>"


class GeneratorManager(_Manager):
    __slots__ = ()
    type_name = "_GeneratorContextManager"


class NullContext(_Manager):
    __slots__ = ()
    type_name = "nullcontext"


class Suppress(_Manager):
    __slots__ = ()
    type_name = "suppress"


def _generator_manager(ctx, function, args: list, kwargs: dict) -> GeneratorManager:
    """What calling a @contextmanager function gives: entering runs the generator to its
    yield, leaving resumes it (with the block's error raised at the yield)."""
    generator = ctx.call(function, args, kwargs)

    def enter():
        if not isinstance(generator, GeneratorObject):
            raise errors.type_error(f"'{type_name(generator)}' object is not an iterator")
        try:
            return generator.send(None)
        except StopIteration:
            raise errors.runtime("generator didn't yield") from None

    def leave():
        try:
            generator.send(None)
        except StopIteration:
            return
        raise errors.runtime("generator didn't stop")

    def leave_with_error(error) -> bool:
        try:
            generator.throw(error)
        except StopIteration:
            return True
        except (GradRuntimeError, errors.TorchError) as raised:
            if raised is error:
                return False
            raise
        raise errors.runtime("generator didn't stop after throw()")
    return GeneratorManager(ContextManager(enter, leave, "_GeneratorContextManager",
                                           exit_with_error=leave_with_error))


def _contextmanager(ctx, function):
    """@contextmanager: the function, called, makes a context manager of its generator."""
    name = function.name if isinstance(function, UserFunction) else "helper"
    return entry(name, lambda *args, **kwargs: _generator_manager(ctx, function, list(args),
                                                                  kwargs),
                 "*args, **kwds", frames=0)


def _nullcontext(enter_result=None) -> NullContext:
    return NullContext(ContextManager(lambda: enter_result, lambda: None, "nullcontext"))


def _suppress(*classes) -> Suppress:
    return Suppress(ContextManager(lambda: None, lambda: None, "suppress",
                                   exit_with_error=lambda error: exceptions.matches(error,
                                                                                    classes)))


_TYPES = {
    "_GeneratorContextManager": PyType("contextlib._GeneratorContextManager",
                                       (GeneratorManager,)),
    "nullcontext": PyType("contextlib.nullcontext", (NullContext,), entry(
        "nullcontext", _nullcontext, "enter_result=None", frames=0)),
    "suppress": PyType("contextlib.suppress", (Suppress,), entry(
        "suppress", _suppress, "*exceptions", frames=0)),
}
CONTEXTLIB = Namespace("contextlib", table(
    entry("contextmanager", _contextmanager, "func", context=True, frames=0),
) | {name: _TYPES[name] for name in ("nullcontext", "suppress")})

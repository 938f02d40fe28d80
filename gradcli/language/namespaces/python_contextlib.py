"""Python's `contextlib`: contextmanager over the program's generator functions, nullcontext,
suppress, redirect_stdout and ExitStack, as context managers of the `with` statement."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import attributes, exceptions
from gradcli.language.runtime.frames import (BoundMethod, ContextManager, GradRuntimeError,
                                             UserFunction)
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


class RedirectStdout(_Manager):
    __slots__ = ()
    type_name = "redirect_stdout"


class ExitStack(_Manager):
    """contextlib.ExitStack: managers entered (and callbacks pushed) one by one, left last
    first when the stack closes."""

    __slots__ = ("ctx", "stack")
    type_name = "ExitStack"

    def __init__(self, ctx):
        super().__init__(ContextManager(lambda: self, self._close, "ExitStack",
                                        exit_with_error=self._close_with_error))
        self.ctx, self.stack = ctx, []

    def attribute(self, name: str):
        found = _STACK_METHODS.get(name)
        if found is None:
            raise self.missing(name)
        return BoundMethod(self, found)

    def enter_context(self, value):
        from gradcli.language.runtime.calls import context_manager
        manager = context_manager(value)
        entered = manager.enter()
        self.stack.append(manager)
        return entered

    def callback(self, function, *args, **kwargs):
        self.stack.append(ContextManager(lambda: None, lambda: self.ctx.call(
            function, list(args), kwargs), "callback"))
        return function

    def _close(self) -> None:
        while self.stack:
            self.stack.pop().exit()

    def _close_with_error(self, error) -> bool:
        """Leave each manager with the block's error until one swallows it."""
        while self.stack:
            manager = self.stack.pop()
            if manager.exit_with_error is None:
                manager.exit()
            elif manager.exit_with_error(error):
                self._close()
                return True
        return False


_STACK_METHODS = table(
    entry("enter_context", ExitStack.enter_context, "self, cm", frames=0),
    entry("callback", ExitStack.callback, "self, callback, /, *args, **kwds", frames=0),
    entry("close", ExitStack._close, "self", frames=0),
)


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


def _redirect_stdout(ctx, new_target) -> RedirectStdout:
    """redirect_stdout(target): inside the `with`, what the program prints (print, sys.stdout)
    goes to target's write method (nowhere for None); the previous output comes back after."""
    saved = []

    def enter():
        saved.append(ctx.write)
        ctx.stdout_targets.append(new_target)
        write = None if new_target is None else attributes.get(new_target, "write")
        ctx.write = (lambda text: None) if write is None else (
            lambda text: ctx.call(write, [text], {}))
        return new_target

    def leave():
        ctx.write = saved.pop()
        ctx.stdout_targets.pop()
    return RedirectStdout(ContextManager(enter, leave, "redirect_stdout"))


_TYPES = {
    "_GeneratorContextManager": PyType("contextlib._GeneratorContextManager",
                                       (GeneratorManager,)),
    "nullcontext": PyType("contextlib.nullcontext", (NullContext,), entry(
        "nullcontext", _nullcontext, "enter_result=None", frames=0)),
    "suppress": PyType("contextlib.suppress", (Suppress,), entry(
        "suppress", _suppress, "*exceptions", frames=0)),
    "redirect_stdout": PyType("contextlib.redirect_stdout", (RedirectStdout,), entry(
        "redirect_stdout", _redirect_stdout, "new_target", context=True, frames=0)),
    "ExitStack": PyType("contextlib.ExitStack", (ExitStack,), entry(
        "ExitStack", ExitStack, "", context=True, frames=0)),
}
CONTEXTLIB = Namespace("contextlib", table(
    entry("contextmanager", _contextmanager, "func", context=True, frames=0),
) | {name: _TYPES[name] for name in ("nullcontext", "suppress", "ExitStack",
                                                  "redirect_stdout")})

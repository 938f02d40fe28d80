"""Generator functions: a body that suspends at each `yield` until the consumer asks again.

The compiled body is ordinary nested closures, so a suspended body keeps its place on a stack of
its own: it runs in a thread, and the consumer and the generator hand control to each other
strictly (one runs while the other waits), so the program sees Python's order of events and the
engine's state is never used by both at once.
"""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime.frames import Frame, GradRuntimeError

_CLOSING = object()  # what close() sends a suspended body


class _Thrown:
    """What throw() sends a suspended body: the error to raise where it is suspended."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error

SLOT = ".generator"  # where a generator body finds its own object (no program name has a dot)
_THREAD_STACK = 64 * 1024 * 1024


class GeneratorObject:
    """What calling a generator function returns: Python's generator protocol."""

    def __init__(self, function, names: dict, runtime):
        self.function, self.names, self.runtime = function, names, runtime
        self.qualname = function.qualname
        self.state = "created"  # created, suspended, running, closed
        import queue  # the first generator brings in what its thread needs

        self._to_body: queue.Queue = queue.Queue(maxsize=1)
        self._to_caller: queue.Queue = queue.Queue(maxsize=1)

    def send(self, value):
        """Resume the body with `value` (None for next()); its next yielded value, or
        StopIteration carrying the body's return value."""
        if self.state == "closed":
            raise StopIteration
        if self.state == "running":
            raise errors.value_error("generator already executing")
        if self.state == "created" and value is not None:
            raise errors.type_error("can't send non-None value to a just-started generator")
        line = self.runtime.line  # the caller's, before the body can run
        if self.state == "created":
            self._start()
        else:
            self._to_body.put(value)
        return self._outcome(line)

    def throw(self, error: BaseException):
        """Python's generator.throw(): `error` raised where the body is suspended; its next
        yielded value, StopIteration when it returns, or the error it lets out."""
        if self.state == "running":
            raise errors.value_error("generator already executing")
        if self.state != "suspended":
            self.state = "closed"
            raise error
        line = self.runtime.line
        self._to_body.put(_Thrown(error))
        return self._outcome(line)

    def _outcome(self, line: int):
        kind, result = self._resumed(line)
        if kind == "yield":
            self.state = "suspended"
            return result
        self.state = "closed"
        if kind == "error":
            raise result
        raise StopIteration(result)

    def __iter__(self):
        return self

    def __next__(self):
        return self.send(None)

    def close(self) -> None:
        """Python's generator.close(): GeneratorExit raised where the body is suspended, so
        that its `finally` blocks run; a body that yields again is a RuntimeError."""
        if self.state != "suspended":
            self.state = "closed"
            return
        line = self.runtime.line
        self._to_body.put(_CLOSING)
        kind, result = self._resumed(line)
        self.state = "closed"
        if kind == "yield":
            raise errors.runtime("generator ignored GeneratorExit")
        if kind == "error" and not (isinstance(result, (GradRuntimeError, errors.TorchError))
                                    and result.kind == "GeneratorExit"):
            raise result

    def _resumed(self, line: int) -> tuple:
        """Wait while the body runs; what it hands back. The caller's `line` is the one running
        again then (a warning after next(gen) names it, as Python's)."""
        self.state = "running"
        try:
            return self._to_caller.get()
        finally:
            self.runtime.line = line

    def _start(self) -> None:
        import threading

        previous = threading.stack_size(_THREAD_STACK)
        try:
            threading.Thread(target=self._run, daemon=True).start()
        finally:
            threading.stack_size(previous)

    def _run(self) -> None:
        frame = Frame(self.function.closure, dict(self.names))
        frame.vars[SLOT] = self
        try:
            result = self.function.body(frame)
        except BaseException as error:  # noqa: BLE001  (raised again in the consumer's thread)
            if isinstance(error, GradRuntimeError) and error.kind == "StopIteration":  # PEP 479
                error = GradRuntimeError("RuntimeError", "generator raised StopIteration",
                                         error.span)
            self._to_caller.put(("error", error))
            return
        self._to_caller.put(("return", result))

    def suspend(self, value):
        """`yield value` inside the body: hand `value` out, wait to be resumed."""
        line = self.runtime.line  # the body's own line again once resumed
        self._to_caller.put(("yield", value))
        sent = self._to_body.get()
        self.runtime.line = line
        if sent is _CLOSING:
            raise GradRuntimeError("GeneratorExit", "", None)
        if isinstance(sent, _Thrown):
            raise sent.error
        return sent


def yield_value(frame, value):
    """The body's generator, found in the frame of the generator function."""
    return frame.vars[SLOT].suspend(value)


def yield_from(frame, iterable, iterate):
    """`yield from iterable`: each of its values yielded in turn; a generator's return value."""
    generator = frame.vars[SLOT]
    if isinstance(iterable, GeneratorObject):
        sent = None
        while True:
            try:
                value = iterable.send(sent)
            except StopIteration as stop:
                return stop.value
            try:
                sent = generator.suspend(value)
            except GradRuntimeError as error:
                if error.kind == "GeneratorExit":
                    iterable.close()
                raise
    for value in iterate(iterable):
        generator.suspend(value)
    return None

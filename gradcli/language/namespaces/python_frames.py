"""inspect.currentframe() and inspect.getargvalues(frame), as d2l's save_hyperparameters reads
its caller's arguments: a frame object of the running user calls (their functions and scopes,
kept by the runtime), with f_back, f_locals and f_globals; the module's frame is the program's
top level, whose f_back is None."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.state import STATE
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import NamedTuple

FRAME_TYPE = PyType("frame", ())


class FrameObject(TableObject):
    """A frame: `chain` holds the (function, scope) of the calls up to it, outermost first;
    none for the module's frame."""

    __slots__ = ("runtime", "chain", "line")

    def __init__(self, runtime, chain: list):
        self.runtime, self.chain = runtime, chain
        calls = runtime.calls  # where each call was made: the line its caller is at
        at = calls[len(chain)][1] if len(chain) < len(calls) else STATE.origin
        self.line = at.line if at is not None else 0

    def repr(self, printer) -> str:
        name = self.chain[-1][0].name if self.chain else "<module>"
        return (f"<frame at 0x{id(self):x}, file '{self.runtime.filename}', line {self.line}, "
                f"code {name}>")

    @property
    def language_type(self) -> PyType:
        return FRAME_TYPE

    def locals(self) -> dict:
        """f_locals: the module's globals themselves, a function's names as a dict."""
        return dict(self.chain[-1][1].vars) if self.chain else self.runtime.globals.vars

    def attribute(self, name: str):
        if name == "f_back":
            return FrameObject(self.runtime, self.chain[:-1]) if self.chain else None
        if name == "f_locals":
            return self.locals()
        if name == "f_globals":
            return self.runtime.globals.vars
        raise self.missing(name)

    def set_attribute(self, name: str, value) -> None:
        raise errors.TorchError("AttributeError", f"'frame' object attribute '{name}' is "
                                "read-only")


class ArgInfo(NamedTuple):
    __slots__ = ()
    language_fields = ("args", "varargs", "keywords", "locals")


def _currentframe(ctx):
    return FrameObject(ctx, list(ctx.frames))


def _getargvalues(frame):
    """The frame's function's parameters (positional, then keyword-only), its * and ** names
    and its locals."""
    if not isinstance(frame, FrameObject):
        raise errors.TorchError("AttributeError", f"'{errors.type_name(frame)}' object has no "
                                "attribute 'f_code'")
    if not frame.chain:
        return ArgInfo(([], None, None, frame.locals()))
    function = frame.chain[-1][0]
    return ArgInfo((list(function.params) + list(function.kwonly), function.star,
                    function.star_star, frame.locals()))


ENTRIES = (entry("currentframe", _currentframe, "", context=True),
           entry("getargvalues", _getargvalues, "frame"))

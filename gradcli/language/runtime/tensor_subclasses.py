"""Instances of a program's classes derived from torch.Tensor, and the state of torch's
__torch_function__ protocol (runtime/subclass_protocol.py runs it).

An instance is an engine tensor with its class recorded beside it, so every op takes it as the
tensor it is. The state says
whether an instance exists, whether the protocol is on (a handler turns it off while it runs a
call itself) and which TorchFunctionModes are entered."""

from __future__ import annotations

import weakref
from contextlib import contextmanager

from gradcli.engine.tensor import Tensor

CLASSES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # tensor -> its class

# torch's Python functions that hand handlers their arguments otherwise than
# torch_function.by_parameter gives them: function -> what turns by_parameter's (args, kwargs)
# into theirs (torch.autograd.grad's tuples)
HANDED: dict = {}

PASS = object()  # what the protocol gives for a call torch does not hand to handlers


class Status:
    """`made`: an instance exists (type queries look it up); `active`: calls go through the
    protocol (a mode is entered, or an instance exists and no handler runs a call with the
    protocol off); `watching`: an instance exists or a mode is entered (operators look);
    `modes`: the entered TorchFunctionModes, innermost last."""

    def __init__(self) -> None:  # (instance attributes: the quickest for Python to read)
        self.made = False
        self.active = False
        self.watching = False
        self.off_depth = 0
        self.modes: list = []

    def update(self) -> None:
        self.active = bool(self.modes) or self.made and not self.off_depth
        self.watching = self.made or bool(self.modes)


STATUS = Status()


def class_of(t):
    """The program's class of tensor `t`, else None."""
    return CLASSES.get(t) if STATUS.made and type(t) is Tensor else None


@contextmanager
def protocol_off():
    """torch's DisableTorchFunctionSubclass: calls run as they are inside."""
    STATUS.off_depth += 1
    STATUS.update()
    try:
        yield
    finally:
        STATUS.off_depth -= 1
        STATUS.update()


@contextmanager
def modes_set(modes: list):
    """The entered modes replaced by `modes` for a while (torch pops a mode while its handler
    runs, and none sees the call a handler declined)."""
    saved, STATUS.modes = STATUS.modes, modes
    STATUS.update()
    try:
        yield
    finally:
        STATUS.modes = saved
        STATUS.update()


def enter_mode(mode) -> None:
    STATUS.modes = [*STATUS.modes, mode]
    STATUS.update()


def exit_mode(mode) -> None:
    if STATUS.modes and STATUS.modes[-1] is mode:
        STATUS.modes = STATUS.modes[:-1]
        STATUS.update()


def taken(values) -> bool:
    """Whether an operation on `values` goes through the protocol: a mode is entered and a
    tensor is among them, or an instance is."""
    if STATUS.modes and any(isinstance(value, Tensor) for value in values):
        return True
    return STATUS.made and involved(values)


def involved(values) -> bool:
    """Whether an instance is among `values` (or the members of a list or tuple among them)."""
    for value in values:
        if type(value) is Tensor:
            if value in CLASSES:
                return True
        elif type(value) in (list, tuple) and any(
                type(member) is Tensor and member in CLASSES for member in value):
            return True
    return False

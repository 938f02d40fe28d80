"""Python's `abc`: the ABC base class and abstractmethod. A class derived from ABC records its
abstract methods when it is made, and refuses to be instantiated while any remain
(runtime/classes.py)."""

from __future__ import annotations

from gradcli.language.runtime.classes import ABC_META, UserClass
from gradcli.language.runtime.frames import UserFunction
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

ABC = UserClass("ABC", "ABC", (), {
    "__module__": "abc", "__slots__": (), "__abstractmethods__": frozenset(), "_abc_impl": None,
    "__doc__": "Helper class that provides a standard way to create an ABC using\n"
               "    inheritance.\n    "}, None, module="abc")


def _abstractmethod(function):
    """abc.abstractmethod: the function, marked abstract."""
    if isinstance(function, UserFunction):
        function.attrs["__isabstractmethod__"] = True
    return function


ABC_MODULE = Namespace("abc", table(
    entry("abstractmethod", _abstractmethod, "funcobj", frames=0),
) | {"ABC": ABC, "ABCMeta": ABC_META})

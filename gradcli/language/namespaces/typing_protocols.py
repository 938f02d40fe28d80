"""typing.Protocol's run-time checks: isinstance() against a @runtime_checkable protocol class
tests that the value has each member the protocol names."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.runtime import classes, protocols

# names a protocol's members leave out (typing's _SPECIAL_NAMES and the class's own records)
_NOT_MEMBERS = frozenset((
    "__abstractmethods__", "__annotations__", "__dict__", "__doc__", "__init__", "__module__",
    "__new__", "__slots__", "__subclasshook__", "__weakref__", "__class_getitem__",
    "__match_args__", "__qualname__", "__parameters__", "__orig_bases__", "_is_protocol",
    "_is_runtime_protocol", "__static_attributes__", "__firstlineno__"))


def is_protocol(cls) -> bool:
    """Whether a class names typing.Protocol among its bases (a protocol class of its own)."""
    return isinstance(cls, classes.UserClass) and cls.namespace.get("_is_protocol") is True


def protocol_instance(value, cls: classes.UserClass) -> bool:
    """isinstance(value, cls) for a protocol: only a runtime_checkable one, by whether value
    has each member the protocol (and the protocols it extends) names."""
    if not cls.namespace.get("_is_runtime_protocol"):
        raise errors.type_error("Instance and class checks can only be used with "
                                "@runtime_checkable protocols")
    for owner in cls.mro:
        if not is_protocol(owner):
            continue
        names = set(owner.namespace) | set(owner.namespace.get("__annotations__", {}))
        for name in names - _NOT_MEMBERS:
            if name.startswith("_abc_"):
                continue
            try:
                protocols.get_attribute(value, name)
            except errors.TorchError:
                return False
    return True


def runtime_checkable(cls):
    """@typing.runtime_checkable: a protocol isinstance() may test."""
    if not is_protocol(cls):
        if not isinstance(cls, classes.UserClass):
            raise errors.type_error("issubclass() arg 1 must be a class")
        raise errors.type_error("@runtime_checkable can be only applied to protocol classes, "
                                f"got {classes.class_repr(cls)}")
    cls.namespace["_is_runtime_protocol"] = True
    return cls

"""Classes a program derives from TensorDataset, Subset and ConcatDataset: the dataset's own
items and length, unless the program's class defines __getitem__, __len__ or __iter__, which
DataLoader, len() and iteration then reach (super().__getitem__ reaches the dataset's)."""

from __future__ import annotations

from gradcli.engine.records import replace

from gradcli.engine import errors
from gradcli.language.namespaces.data import CONCAT_DATASET, SUBSET, TENSOR_DATASET
from gradcli.language.runtime import classes
from gradcli.language.runtime.frames import BoundMethod
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import iterate


class UserDataset(classes.UserInstance):
    """Mixed into a dataset's host class (`instance_class`); the host's fields are filled by
    the base's __init__, until which reading them is torch's AttributeError."""

    __slots__ = ()

    def _check_ready(self) -> None:
        if not self.ready:
            raise self.missing(_FIRST_FIELD[type(self)])

    def attribute(self, name: str):
        if name in self.attrs:
            return self.attrs[name]
        defined = self.cls.find(name)
        if defined is not classes.MISSING:
            return classes.bind(defined, self, self.cls)
        if name in self.PROPERTIES and not self.ready:
            raise self.missing(name)
        return super().attribute(name)

    def base_attribute(self, name: str):
        method = _DATASET_DUNDERS.get(name)
        return BoundMethod(self, method) if method is not None else super().attribute(name)

    def set_attribute(self, name: str, value) -> None:
        if not classes.set_property(self.cls, self, name, value):
            self.attrs[name] = value

    def _own(self, name: str, args: list):
        method = self.cls.find(name)
        if method is classes.MISSING:
            return classes.MISSING
        return self.cls.runtime.call(classes.bind(method, self, self.cls), args, {})

    def item(self, key):
        found = self._own("__getitem__", [key])
        if found is not classes.MISSING:
            return found
        self._check_ready()
        return super().item(key)

    def length(self) -> int:
        found = self._own("__len__", [])
        if found is not classes.MISSING:
            if not isinstance(found, int):
                raise errors.type_error(f"'{type(found).__name__}' object cannot be interpreted "
                                        "as an integer")
            return found
        self._check_ready()
        return super().length()

    def members(self):
        found = self._own("__iter__", [])
        return iterate(found) if found is not classes.MISSING else super().members()

    def repr(self, printer) -> str:
        found = self._own("__repr__", [])
        if found is not classes.MISSING:
            return classes.text_of(found, "__repr__")
        return f"<{self.cls.module}.{self.cls.qualname} object at 0x{id(self):x}>"


def _base_item(dataset: UserDataset, index):
    dataset._check_ready()
    return super(UserDataset, dataset).item(index)


def _base_length(dataset: UserDataset) -> int:
    dataset._check_ready()
    return super(UserDataset, dataset).length()


_DATASET_DUNDERS = table(entry("__getitem__", _base_item, "self, index"),
                         entry("__len__", _base_length, "self"))
_FIRST_FIELD: dict = {}


def _register(base) -> None:
    if base in classes.BASE_INSTANCES:
        return
    host = base.hosts[0]
    derived = type(host.__name__, (UserDataset, host), {"__slots__": ("cls", "ready")})
    _FIRST_FIELD[derived] = host.__slots__[0]

    def make(cls, args):
        instance = derived.__new__(derived)
        instance.cls, instance.attrs, instance.ready = cls, {}, False
        return instance

    construct = base.construct.builtin

    def init(instance, *args):
        """The dataset's __init__ (its host's, which takes the same arguments), keeping the
        attributes the program set before it."""
        if not isinstance(instance, derived):
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of "
                                    "type")
        attrs = instance.attrs
        host.__init__(instance, *args)
        instance.attrs, instance.ready = attrs, True

    classes.BASE_INSTANCES[base] = make
    classes.BASE_INITS[base] = replace(construct, fn=init)
    classes.BASE_INIT_INHERITED.add(base)


def register() -> None:
    """Let programs derive their own classes from the datasets (once)."""
    for base in (TENSOR_DATASET, SUBSET, CONCAT_DATASET):
        _register(base)

"""Classes as the language sees them: builtin ones described by a name, host classes and a
constructor; `object`, the root of every class."""

from __future__ import annotations

from gradcli.engine.records import record


@record(frozen=True, eq=False)
class PyType:
    """A class as the language sees it (`int`, `torch.Tensor`): `isinstance` tests `hosts`,
    calling it runs `construct` (a table entry) when it has one."""

    name: str
    hosts: tuple
    construct: object = None
    metaclass: str = "type"  # its own class's name, as messages name it (torch.tensortype)


OBJECT = PyType("object", (object,))  # the root class: every value is an instance of it


class GenericHost:
    """The host class of typing.Generic, which torch's generic bases (Dataset, Sampler) derive
    from: it puts Generic in their subclasses' __mro__."""


def c_type(name: str) -> bool:
    """Whether class `name` is a C type (torch.finfo, torch.Size, torch._C.Generator,
    torch.return_types.max, types.SimpleNamespace), which Python's messages name by its full
    tp_name; torch's Python classes (torch.Tensor, torch.nn.modules.linear.Linear) are named by
    their short name."""
    return name.startswith(("torch._C.", "torch.return_types.", "types.")) or (
        name.startswith("torch.") and name.count(".") == 1 and name != "torch.Tensor")


def instance_module(name: str) -> str | None:
    """`__module__` of an instance of torch's class `name`: its class's, which the class's
    __dict__ holds for Python classes and a few C types (torch.dtype, torch._C's); None where
    it has none (torch.device, torch.Size, torch.finfo...)."""
    if not name.startswith("torch."):
        return None
    if c_type(name) and name != "torch.dtype" and not name.startswith("torch._C."):
        return None
    return name.rpartition(".")[0]


@record(frozen=True, eq=False)
class TypeForm:
    """A typing construct (`typing.List`, `Optional[int]`) or a subscripted builtin class
    (`list[int]`): something annotations name, printed as Python prints it."""

    name: str  # "typing.List", or "list" for a builtin class
    args: tuple | None = None  # the subscript, once subscripted
    origin: PyType | None = None  # a subscripted generic class (Sampler[int]): what a base is

    def subscript(self, key) -> "TypeForm":
        args = key if isinstance(key, tuple) else (key,)
        if self.name == "typing.Optional":
            return TypeForm("typing.Optional", (args[0],))
        if self.name == "typing.Union":
            return _union(args)
        return TypeForm(self.name, args, self.origin)

    def __eq__(self, other):
        """Subscripted forms are equal by name and arguments (a Union's in any order), as
        typing's aliases; bare ones only to themselves."""
        if not isinstance(other, TypeForm):
            return NotImplemented
        if self.args is None or other.args is None:
            return self is other
        if self.name != other.name or self.origin is not other.origin:
            return False
        if self.name == "typing.Union":
            return len(self.args) == len(other.args) and all(a in other.args for a in self.args)
        return self.args == other.args

    def __hash__(self):
        return hash(self.name)

    def text(self, name_of) -> str:
        """Its repr; `name_of(value)` names a class inside the brackets."""
        if self.name == "types.UnionType":  # int | None
            return " | ".join("None" if a is None else _argument_text(a, name_of)
                              for a in self.args)
        if self.args is None:
            return self.name
        return f"{self.name}[{', '.join(_argument_text(a, name_of) for a in self.args)}]"


def _union(args: tuple):
    """Union[...]: nested unions flattened and repeats dropped, a single member itself, and a
    member with None an Optional, as typing makes them."""
    members = []
    for arg in args:
        for member in (arg.args if isinstance(arg, TypeForm) and arg.name == "typing.Union"
                       and arg.args else (arg,)):
            if not any(member is m or member == m for m in members):
                members.append(member)
    if len(members) == 1:
        return members[0]
    if len(members) == 2 and None in members:
        return TypeForm("typing.Optional", (next(m for m in members if m is not None),))
    return TypeForm("typing.Union", tuple(members))


def _argument_text(value, name_of) -> str:
    if value is Ellipsis:
        return "..."
    if value is None or value is type(None):
        return "NoneType"
    if isinstance(value, list):
        return "[" + ", ".join(_argument_text(v, name_of) for v in value) + "]"
    if isinstance(value, TypeForm):
        return value.text(name_of)
    if isinstance(value, (str, bytes, int, float)):  # Literal['a', 1]
        return repr(value)
    return name_of(value)


GENERIC = TypeForm("typing.Generic", origin=OBJECT)  # a class, unsubscripted: <class 'typing.Generic'>

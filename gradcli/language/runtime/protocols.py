"""Python's protocols and name tables as the language runs them, for the modules beneath the
ones that define them, which use them without importing their owner: user classes and Python's
modules call the operators and truth through here, and the compiler and the runtime resolve
names, imports and Tensor attributes through the namespaces' tables. Each is set once, by the
module that defines it, when it is imported (session.py loads them all); read them as
`protocols.NAME` at run time."""

from __future__ import annotations

from typing import Callable

truth: Callable = bool  # runtime.coercions: truth(value), torch's errors for tensors
absolute: Callable = abs  # namespaces.builtins: abs(value)
is_callable: Callable = callable  # namespaces.builtins: callable(value)
binary: Callable = None  # runtime.operators: binary(op, a, b)
unary: Callable = None  # runtime.operators: unary(op, a)
compare: Callable = None  # runtime.operators: compare(op, a, b)
augmented: Callable = None  # compiler.targets: augmented(op, a, b), the value of `a op= b`
get_item: Callable = None  # runtime.calls: get_item(value, key)
set_item: Callable = None  # runtime.calls: set_item(value, key, item)
delete_item: Callable = None  # runtime.calls: delete_item(value, key)
get_attribute: Callable = None  # runtime.attributes: get(value, name)
register_type: Callable = None  # namespaces.builtins: what type() gives for a new host class
type_of: Callable = None  # namespaces.builtins: type(value), which is also value.__class__
is_attribute_error: Callable = None  # runtime.exceptions: whether an error is an AttributeError
# runtime.subclass_protocol: torch's __torch_function__ protocol, for the operations that find an
# instance of a tensor subclass or an entered mode among their operands
subclass_call: Callable = None  # call(builtin, args, kwargs, run): the result, else PASS
subclass_special: Callable = None  # special(dunder, operands, run, own=True)
subclass_binary: Callable = None  # binary(symbol, dunders, a, b, run)
subclass_rows: Callable = None  # rows(t): what iterating an instance walks
subclass_repr: Callable = None  # repr_of(printer, t)

# A builtin class's attributes (`str.upper`, `dict.fromkeys`, a namedtuple's `_make`), by host
# class: runtime.attributes fills it for Python's containers, modules for their classes.
CLASS_METHODS: dict = {}

# The namespaces' tables (rebound by their owner, so a lazily loaded table stays lazy).
BUILTINS: dict = {}  # namespaces.builtins: Python's builtin names, for names bound nowhere
MODULES: dict = {}  # namespaces.torch_table: dotted path -> what `import` binds
TENSOR_ATTRS: dict = {}  # namespaces.tensor_table: a Tensor's attributes, (getter, setter)
TENSOR_METHODS: dict = {}  # namespaces.tensor_table: a Tensor's methods
TENSOR_DUNDERS: dict = {}  # namespaces.tensor_dunders: its special methods called by name
# namespaces.builtins: the builtins that read the running scope (dir(), globals(), locals())
# when called by name without arguments: name -> (the builtin, scope(frame, top_level))
SCOPE_CALLS: dict = {}

"""Python's protocols as the language runs them (truth, operators, items, attributes), for the
modules beneath the expression layer (Python's modules, user classes), which call them without
importing that layer: each is set once, by the module that defines it, when it is imported."""

from __future__ import annotations

from typing import Callable

truth: Callable = bool  # namespaces.builtins: truth(value), torch's errors for tensors
absolute: Callable = abs  # namespaces.builtins: abs(value)
is_callable: Callable = callable  # namespaces.builtins: callable(value)
binary: Callable = None  # compiler.operators: binary(op, a, b)
unary: Callable = None  # compiler.operators: unary(op, a)
compare: Callable = None  # compiler.operators: compare(op, a, b)
augmented: Callable = None  # compiler.targets: augmented(op, a, b), the value of `a op= b`
get_item: Callable = None  # runtime.calls: get_item(value, key)
set_item: Callable = None  # runtime.calls: set_item(value, key, item)
get_attribute: Callable = None  # runtime.attributes: get(value, name)
register_type: Callable = None  # namespaces.builtins: what type() gives for a new host class

# A builtin class's attributes (`str.upper`, `dict.fromkeys`, a namedtuple's `_make`), by host
# class: runtime.attributes fills it for Python's containers, modules for their classes.
CLASS_METHODS: dict = {}

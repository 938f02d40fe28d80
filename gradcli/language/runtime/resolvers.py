"""The tables the runtime and the compiler resolve through without importing the namespaces
that own them: each owner publishes its table here when it is loaded, and session.py loads
them all. Read them as `resolvers.NAME` at run time (an owner rebinds its name, so a lazily
loaded table stays lazy)."""

from __future__ import annotations

BUILTINS: dict = {}  # Python's builtin names (namespaces/builtins.py), for names bound nowhere
MODULES: dict = {}  # dotted path -> what `import` binds (namespaces/torch_table.py)
TENSOR_ATTRS: dict = {}  # a Tensor's attributes: name -> (getter, setter or None)
TENSOR_METHODS: dict = {}  # a Tensor's methods: name -> Builtin (namespaces/tensor_table.py)

"""One declaration per public torch function: its schemas, variants and implementation.

`declare` is written beside the function it declares, in the module of its area. The
language's torch, Tensor, torch.nn.functional and torch.linalg tables, the REPL's completion
and any listing of names are built from DECLARATIONS, never kept by hand.
"""

from __future__ import annotations

from gradcli.engine.records import field, record, replace
from typing import Callable

import numpy as np

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.functions import LateTable
from gradcli.engine.state import STATE
from gradcli.engine.tensor import Tensor
from gradcli.engine.triggered import triggered

# Where a function is reachable: torch.X, Tensor.X, torch.nn.functional.X, torch.linalg.X,
# torch.special.X, torch.fft.X.
VARIANTS = ("torch", "method", "functional", "linalg", "special", "fft")
# the variants whose C++ functions torch names with a prefix (linalg_det(), special_expit(),
# fft_fft())
_PREFIXED = frozenset(("linalg", "special", "fft"))
# Values a cached binding may share between calls
_ATOMS = frozenset((type(None), bool, int, float, str))


class Overloads:
    """A declaration's overloads: (schemas, method_schemas, hidden, targets, method_targets),
    made by `make` on first use (parsing torch's schema texts), as most declared functions are
    never called in a run. Equal when their overloads are."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], tuple]):
        self._make, self._made = make, None

    def get(self) -> tuple:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __eq__(self, other) -> bool:
        return isinstance(other, Overloads) and (self is other or self.get() == other.get())

    def __hash__(self) -> int:
        return hash(self.get())


@record(frozen=True)
class Declaration:
    """A public function. With `overloads` (torch's schemas), arguments bind as torch's C++
    argument parser binds them (its TypeErrors); with `python`, the function is Python code in
    torch and binds with Python's rules (the signature text, e.g. 'input, p="fro", dim=None')."""

    name: str
    impl: Callable
    variants: frozenset
    overloads: Overloads
    python: str | None = None
    numbers_as_tensors: bool = False  # Tensor arguments also take Python numbers (add, mul...)
    python_title: str = ""  # the Python function's own name where it differs (_max_pool2d)
    number_self: bool = True  # False for in-place variants: what is written into is a tensor
    # A method called with no arguments (`t.sum()`) binds the same way for every receiver of one
    # type: receiver type -> (the positional arguments after it, the keywords). Kept only where
    # no deprecated overload (and its warning) is involved and the values are immutable.
    _bare: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def schemas(self) -> tuple:
        return self.overloads.get()[0]

    @property
    def method_schemas(self) -> tuple:
        return self.overloads.get()[1]

    @property
    def hidden(self) -> tuple:
        """torch's deprecated overloads: they bind, messages never show them."""
        return self.overloads.get()[2]

    @property
    def targets(self) -> tuple:
        """Per overload, the impl parameter each schema argument goes to (by name, else by
        position)."""
        return self.overloads.get()[3]

    @property
    def method_targets(self) -> tuple:
        return self.overloads.get()[4]

    def bind(self, args: tuple, kwargs: dict, variant: str) -> tuple[tuple, dict]:
        """(positional, keywords) to call `impl` with, or torch's TypeError. A method's
        receiver comes first in `args`; `out=` is passed on by name for __call__."""
        bare = variant == "method" and len(args) == 1 and not kwargs and not self.hidden
        if bare:
            known = self._bare.get(type(args[0]))
            if known is not None:
                return (args[0], *known[0]), dict(known[1])
        positional, keywords = self._bind(args, kwargs, variant)
        if bare and all(type(v) in _ATOMS for v in (*positional[1:], *keywords.values())):
            self._bare[type(args[0])] = (positional[1:], dict(keywords))
        return positional, keywords

    def _bind(self, args: tuple, kwargs: dict, variant: str) -> tuple[tuple, dict]:
        is_function = variant != "method"
        function_schemas, method_schemas, deprecated, targets, method_targets = \
            self.overloads.get()
        chosen = function_schemas if is_function else method_schemas
        receiver, args = ((), args) if is_function else (args[:1], args[1:])
        hidden = deprecated if is_function else tuple(map(schemas.without_out, deprecated))
        written = (*receiver, *args)[:1]
        numbers = self.numbers_as_tensors and (self.number_self or bool(written) and isinstance(
            written[0], Tensor))
        # as torch names it: the C++ function's name
        title = f"{variant}_{self.name}" if variant in _PREFIXED else (
            chosen[0].name if chosen else self.name)
        index, bound = schemas.bind(chosen, args, kwargs, is_function, title, hidden, numbers)
        out = bound.pop("out", None)
        if self.numbers_as_tensors and not any(isinstance(v, Tensor) for v in bound.values()):
            used = chosen[index] if index < len(chosen) else hidden[index - len(chosen)]
            first = next((p.name for p in used.params if p.type == "Tensor" and p.name in bound),
                         next(iter(bound)))
            bound[first] = _number_tensor(bound[first])  # torch.add(3, 0): a wrapped number
        if index >= len(chosen):  # a deprecated order: the first overload's, by name
            _warn_deprecated(self.name, hidden[index - len(chosen)], chosen, is_function)
            index = 0
            bound = {p.name: bound[p.name] for p in chosen[0].params if p.name in bound}
        names = (targets if is_function else method_targets)[index]
        values = [*receiver, *bound.values()]
        if names is None:
            keyword_only = {p.name for p in chosen[index].params if p.keyword_only}
            positional = (*receiver, *(v for name, v in bound.items()
                                       if name not in keyword_only))
            keywords = {name: v for name, v in bound.items() if name in keyword_only}
        else:
            positional, keywords = (values[0],), dict(zip(names[1:], values[1:]))
        if out is not None:
            keywords["out"] = out
        return positional, keywords

    def __call__(self, *args, out=None, **kwargs):
        """Run the function on bound arguments, writing into `out` when one is given."""
        result = self.impl(*args, **kwargs)
        if out is None:
            return result
        return write_out(self.name, result, out, (*args, *kwargs.values()))


def _warn_deprecated(name: str, used, current: tuple, is_function: bool) -> None:
    """torch's warning for a call that bound to a deprecated overload (once per process, for
    all of them: the parser warns from one place)."""
    show = schemas.display_signature
    advice = "".join(f"\n\t{name}{show(s, is_function)}" for s in current)
    STATE.warn("UserWarning", triggered(
        f"This overload of {name} is deprecated:\n\t{name}{show(used, is_function)}\nConsider "
        f"using one of the following signatures instead:{advice}",
        "torch/csrc/utils/python_arg_parser.cpp", 1841), once="deprecated overload")


def _number_tensor(value) -> Tensor:
    """A Python number as the 0-dim tensor torch's parser makes of it."""
    dtype = dtypes.scalar_dtype(value, STATE.default_dtype)
    return Tensor(np.asarray(value, dtype=dtype.np), dtype)


DECLARATIONS: dict[tuple[str, str], Declaration] = LateTable("declaration")


def declare(name: str, impl: Callable, *schema_texts: str, variants: str = "torch method",
            method: tuple = (), python: str | None = None, aliases: tuple = (),
            hidden: tuple = (), numbers_as_tensors: bool = False, title: str = "") -> Callable:
    """Declare `impl` as the public function `name` (and its aliases); returns `impl`. The
    method's overloads default to the function's without `out=`."""
    def parse() -> tuple:
        parsed = tuple(schemas.parse_schema(text) for text in schema_texts)
        parsed_method = (tuple(schemas.parse_schema(text) for text in method)
                         or tuple(schemas.without_out(s) for s in parsed))
        return (parsed, parsed_method, tuple(schemas.parse_schema(text) for text in hidden),
                _targets(impl, parsed), _targets(impl, parsed_method))

    declaration = Declaration(name, impl, frozenset(variants.split()), Overloads(parse), python,
                              numbers_as_tensors, python_title=title)
    for alias in (name, *aliases):
        # torch's deprecated overloads belong to the name, not to its aliases
        aliased = declaration if alias == name else _renamed(declaration, alias, hidden=False)
        for variant in declaration.variants:
            DECLARATIONS[variant, alias] = aliased
    return impl


def declare_alias(variant: str, name: str, source: str) -> None:
    """`variant`.NAME as another name of the declared torch.SOURCE (torch.special.expit is
    torch.sigmoid): the same function and overloads, under the new name."""
    declaration = replace(_renamed(DECLARATIONS["torch", source], name, hidden=False),
                          variants=frozenset((variant,)))
    DECLARATIONS[variant, name] = declaration


def call(variant: str, name: str, *args, **kwargs):
    """torch.NAME(*args, **kwargs) (Tensor.NAME for variant "method", the receiver first) as a
    program calls it: bound by its parser, then run; what torch's Python code calls."""
    declaration = DECLARATIONS[variant, name]
    positional, keywords = declaration.bind(args, kwargs, variant)
    return declaration(*positional, **keywords)


def _targets(impl: Callable, overloads: tuple) -> tuple:
    """For each overload, the impl's parameter names its arguments bind to: the same name when
    the impl has it, else the impl's parameter at the same position."""
    code = impl.__code__
    if code.co_flags & _VARARGS:  # f(*args, **params): positional arguments stay positional
        return tuple(None for _ in overloads)
    accepted = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return tuple(tuple(p.name if p.name in accepted else accepted[i]
                       for i, p in enumerate(schema.params) if p.name != "out")
                 for schema in overloads)


_VARARGS = 0x04  # CO_VARARGS


def _renamed(declaration: Declaration, alias: str, hidden: bool = True) -> Declaration:
    """`declaration` under another name (its deprecated overloads dropped unless `hidden`)."""
    def make() -> tuple:
        current, method, deprecated, targets, method_targets = declaration.overloads.get()
        return (_named(current, alias), _named(method, alias), deprecated if hidden else (),
                targets, method_targets)
    return replace(declaration, name=alias, overloads=Overloads(make))


def _named(overloads: tuple, name: str) -> tuple:
    return tuple(schemas.Schema(name, s.params) for s in overloads)


def declare_inplace(name: str, write_back: Callable, function: bool = False) -> None:
    """Tensor.NAME_ (and torch.NAME_ when `function`): the declared NAME's overloads, its result
    written back into self by `write_back(impl)`, as torch's in-place variants are."""
    source = DECLARATIONS["method", name]
    # self is written into, so it must be a tensor even where numbers stand in for others
    inplace = replace(_renamed(source, name + "_"), impl=write_back(source.impl),
                      number_self=False)
    DECLARATIONS["method", name + "_"] = inplace
    if function:
        function_overloads = DECLARATIONS["torch", name].overloads

        def tensor_self() -> tuple:
            """The function's overloads whose self is a tensor, without out=."""
            overloads = _named(function_overloads.get()[0], name + "_")
            _, method, deprecated, targets, method_targets = inplace.overloads.get()
            kept = [s.params[0].type == "Tensor" for s in overloads]
            return (tuple(schemas.without_out(s) for s, k in zip(overloads, kept) if k), method,
                    deprecated, tuple(t for t, k in zip(targets, kept) if k), method_targets)
        DECLARATIONS["torch", name + "_"] = replace(inplace, overloads=Overloads(tensor_self))


def declared(variant: str) -> dict[str, Declaration]:
    """The declarations reachable through one variant, by name, of the areas loaded so far
    (gradcli.engine.ops.load_all loads them all)."""
    return {name: d for (v, name), d in DECLARATIONS.items() if v == variant}


# the functions whose out= torch.cat's kernel checks (its words name it)
_CAT_FAMILY = frozenset(("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack",
                         "column_stack", "row_stack"))


def write_out(name: str, result: Tensor, out: Tensor, inputs: tuple) -> Tensor:
    """`out=`: the result written into `out` (resized), as torch's out variants do."""
    if not isinstance(out, Tensor):
        raise errors.type_error(f"{name}(): argument 'out' must be Tensor, not "
                                f"{errors.type_name(out)}")
    if STATE.grad_enabled and (out.requires_grad or any(
            isinstance(t, Tensor) and t.requires_grad for t in inputs)):
        raise errors.runtime(f"{name}(): functions with out=... arguments don't support automatic "
                             "differentiation, but one of the arguments requires grad.")
    if name in _CAT_FAMILY and result.dtype.category > out.dtype.category:
        if name == "stack":  # stack's out is resized before cat writes into its slices
            warn_resized(out, result.shape)
        raise errors.type_error("torch.cat(): input types can't be cast to the desired output "
                                f"type {out.dtype.scalar_name}")
    errors.check_cast(result.dtype, out.dtype)
    warn_resized(out, result.shape)
    out.data = result.data.astype(out.dtype.np, copy=True)
    out.bump_version()
    return out


def warn_resized(out: Tensor, shape: tuple) -> None:
    """torch's warning for an output with elements resized to another shape."""
    if out.data.size != 0 and out.shape != shape:
        STATE.warn("UserWarning", _RESIZED.format(list(out.shape), list(shape)))


_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
            "not match the required output shape {}. This behavior is deprecated, and in a future "
            "PyTorch release outputs will not be resized unless they have zero elements. You can "
            "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
            "t.resize_(0).")
_RESIZED = triggered(_RESIZED, "aten/src/ATen/native/Resize.cpp", 30)

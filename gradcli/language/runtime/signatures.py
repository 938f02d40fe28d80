"""Signatures of table entries and argument binding with Python's TypeError texts."""

from __future__ import annotations

import ast
import functools
from gradcli.engine.records import record, replace
from typing import Callable

from gradcli.engine import dtypes, errors, schemas
from gradcli.engine.dtypes import DType
from gradcli.engine.functions import F
from gradcli.engine.tensor import Tensor
from gradcli.language.runtime.wording import missing_arguments

_REQUIRED = object()
_INLINE = 1 << 20  # the check order of a check written on its parameter


# The styles of C functions, whose messages leave a method's receiver out of the count:
# torch's parser; CPython's METH_NOARGS ("list.copy() takes no arguments (1 given)"), METH_O
# ("list.count() takes exactly one argument (2 given)"), positional checks ("index expected at
# most 3 arguments, got 4"), slot wrappers ("expected 0 arguments, got 1", `[].__len__(1)`),
# PyArg_ParseTuple ("count() takes at most 3 arguments (4 given)") and keyword parsers ("sort()
# takes no positional arguments").
_WITHOUT_RECEIVER = frozenset(("parser", "noargs", "exact", "expected", "wrapper", "at_most",
                               "keywords"))
# Python's classes written in C, as their methods' qualified names begin, and as Python names
# them: their methods, called unbound without a receiver, need an argument
C_CLASSES = {**{cls.__name__: cls.__name__ for cls in (
    list, dict, set, frozenset, tuple, str, bytes, int, float, complex, range)},
    "deque": "collections.deque", "OrderedDict": "collections.OrderedDict",
    "TensorBase": "torch._C.TensorBase", "ndarray": "numpy.ndarray"}


@record(frozen=True)
class Param:
    name: str
    default: object = _REQUIRED
    var_positional: bool = False
    var_keyword: bool = False
    keyword_only: bool = False
    positional_only: bool = False
    # `name: Tensor` in a spec: anything else is torch's TypeError for the argument (`Tensor?`
    # also takes None; `Tensor@inplace` names the function `X_` when `inplace` is true,
    # `Tensor@name` the C++ function torch's Python code calls, `Tensor@name:param` also naming
    # its parameter);
    # `name: .size`: torch's Python code calls that method first (an AttributeError otherwise);
    # `name: ScalarType?`: a dtype or None, Python's float, int and bool read as dtypes;
    # `name: truth`: it tests the argument's truth (`if inplace:`); `name: probability`: it
    # checks that a dropout probability is within [0, 1]
    expects: str | None = None
    check_order: int = _INLINE  # checks listed after `;` come first, in their order

    @property
    def required(self) -> bool:
        """Whether a call must give it (it has no default and takes one value)."""
        return self.default is _REQUIRED and not (self.var_positional or self.var_keyword)


@functools.cache  # a few hundred specs, most of them shared by many builtins
def parse_signature(spec: str) -> tuple[Param, ...]:
    """'x, /, dim=None, *, keepdim=False, **kw' -> Params (defaults are literals); a name may
    carry what it expects: 'input: Tensor' or 'input: .size' (see Param.expects). Checks that
    torch's Python code makes in another order than the parameters' follow a `;`:
    'input, p=0.5, inplace=False; p: probability, input: .dim'."""
    spec, _, ordered = spec.partition(";")
    checks = {}
    for index, check in enumerate(filter(None, (c.strip() for c in ordered.split(",")))):
        name, _, kind = (s.strip() for s in check.partition(":"))
        checks[name] = (kind, index)
    params = _parse_parameters(spec)
    return tuple(replace(p, expects=checks[p.name][0], check_order=checks[p.name][1])
                 if p.name in checks else p for p in params)


def _parse_parameters(spec: str) -> list[Param]:
    params, keyword_only = [], False
    for part in filter(None, (p.strip() for p in spec.split(","))):
        expects = None
        if ":" in part.partition("=")[0]:
            named, _, default = part.partition("=")
            name, _, expects = (s.strip() for s in named.partition(":"))
            part = name + ("=" + default if default else "")
        if part == "/":
            params = [Param(p.name, p.default, positional_only=True) for p in params]
        elif part == "*":
            keyword_only = True
        elif part.startswith("**"):
            params.append(Param(part[2:], var_keyword=True))
        elif part.startswith("*"):
            params.append(Param(part[1:], var_positional=True))
            keyword_only = True
        elif "=" in part:
            name, default = (s.strip() for s in part.split("=", 1))
            params.append(Param(name, _default(default), keyword_only=keyword_only,
                                expects=expects))
        else:
            params.append(Param(part, keyword_only=keyword_only, expects=expects))
    return params


def _shown_type(value) -> str:
    return "Tensor" if isinstance(value, Tensor) else errors.type_name(value)


def _is_int_list(value) -> bool:
    return isinstance(value, (tuple, list)) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


# what an argument declared `name: KIND` accepts, and the kind's name in torch's messages
_ACCEPTS = {"object": (lambda v: True, "object"),  # the function's own code checks it
           "Tensor": (lambda v: isinstance(v, Tensor), "Tensor"),
            "bool": (lambda v: isinstance(v, bool), "bool"),
            "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "int"),
            # torch's parser also takes a 0-d integer tensor for an int (the callee converts it)
            "index": (lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (
                isinstance(v, Tensor) and v.ndim == 0 and v.dtype.category == dtypes.INTEGRAL),
                "int"),
            "Number": (lambda v: isinstance(v, (int, float)), "Number"),
            "float": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "float"),
            "str": (lambda v: isinstance(v, str), "str"),
            "ScalarType": (lambda v: isinstance(dtypes.dtype_argument(v), DType), "torch.dtype"),
            "int[]": (_is_int_list, "tuple of ints")}


def _check_expected(title: str, param: Param, value, position: int | None) -> None:
    """torch's complaint when an argument is not what its function needs."""
    if param.expects == "truth":
        _check_truth(value)
        return
    if param.expects == "probability":  # `if p < 0.0 or p > 1.0: raise ValueError(...)`
        if F.truth(F.python_compare("<", value, 0.0)) or F.truth(
                F.python_compare(">", value, 1.0)):
            shown = value.data.item() if isinstance(value, Tensor) else value  # as f"{p}" reads
            raise errors.value_error(f"dropout probability has to be between 0 and 1, but got "
                                     f"{shown}")
        return
    if value is None and (param.default is None or param.expects.endswith("?")):
        return
    if param.expects.startswith("."):
        if not isinstance(value, Tensor):
            raise errors.TorchError("AttributeError", f"'{_shown_type(value)}' object has no "
                                    f"attribute '{param.expects[1:]}'")
        return
    accepts, shown = _ACCEPTS[param.expects.rstrip("?")]
    if not accepts(value):
        if param.expects.startswith("int[]") and isinstance(value, (tuple, list)) and \
                position is not None:
            raise schemas.int_list_error(title, param.name, position, value)
        where = f" (position {position})" if position is not None else ""
        raise errors.type_error(f"{title}(): argument '{param.name}'{where} must be {shown}, "
                                f"not {_shown_type(value)}")


def _is_true(value) -> bool:
    return bool(value.data) if isinstance(value, Tensor) else bool(value)


def _check_truth(value) -> None:
    """Python's truth of `value` as torch gives it for a tensor (one element, else an error)."""
    if isinstance(value, Tensor):
        F.truth(value)


NOT_GIVEN = type("NotGiven", (), {"__repr__": lambda self: "NOT_GIVEN"})()  # an omitted argument
_NAMED_DEFAULTS = {"None": None, "True": True, "False": False, "()": (), "NOT_GIVEN": NOT_GIVEN}


def _default(text: str):
    """A default written in a table's signature (our own text, never the program's): None, True,
    False, (), a number or a string."""
    if text in _NAMED_DEFAULTS:
        return _NAMED_DEFAULTS[text]
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)  # (Python's float also reads 'inf' and 'nan': no default is either)
    except ValueError:
        return ast.literal_eval(text)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


@record(frozen=True)
class Builtin:
    """A callable reachable from the language: `fn` gets the bound arguments in order.

    Positional parameters (a *args one unpacked) come first, then keyword-only ones and any
    **kwargs by name. With `needs_context`, `fn` receives the interpreter's runtime first.
    `style` picks how argument-count errors are worded: "python" for functions written in
    Python (torch's), "parser" for a function or Tensor method that torch's C++ argument parser
    binds (counts leave a method's `self` out), or the wording of a C builtin: "exact" (len), "expected" (float),
    "at_most" (sum), "noargs" (a C method or function that takes no arguments), or "new" for a
    class whose `__new__` takes the arguments (Python counts the class among them).
    """

    name: str
    fn: Callable
    signature: str | tuple[Param, ...]  # the spec text (parsed on first use) or its Params
    needs_context: bool = False
    qualname: str = ""
    style: str = "python"
    frames: int = 1  # frames Python's call of it takes: classes and len take none
    while_doing: str = "calling a Python object"  # what a RecursionError at the limit says

    @property
    def title(self) -> str:
        return self.qualname or self.name

    @property
    def clinic_name(self) -> str:
        """The name CPython's argument parsers give a C function in their messages: a method's
        own name (`index expected ...`, not list.index's), a class's for its __init__."""
        owner, _, name = self.title.rpartition(".")
        return owner if name == "__init__" and owner else name

    @property
    def params(self) -> tuple[Param, ...]:
        signature = self.signature
        return parse_signature(signature) if type(signature) is str else signature

    def _plain_binding(self):
        """(defaults, required count) when the parameters are plain ones only (no *args,
        **kwargs, keyword-only or checked types), required ones first: a call without keywords
        then binds as its arguments plus the defaults. False otherwise. Worked out on first
        use, kept on the entry."""
        params = self.params
        required = sum(1 for p in params if p.default is _REQUIRED)
        plain = all(not (p.var_positional or p.var_keyword or p.keyword_only) and
                    p.expects is None for p in params) and all(
                        p.default is _REQUIRED for p in params[:required])
        binding = (tuple(p.default for p in params), required) if plain else False
        object.__setattr__(self, "_plain", binding)
        return binding

    def bind(self, args: list, kwargs: dict) -> tuple[list, dict]:
        """(positional, keywords) for `fn`, or TypeError with Python's texts."""
        plain = self.__dict__.get("_plain")
        if plain is None:
            plain = self._plain_binding()
        if plain and not kwargs and plain[1] <= len(args) <= len(plain[0]):
            return [*args, *plain[0][len(args):]], {}
        positional, keywords, rest = [], {}, list(args)
        given = {}
        slots = [p for p in self.params if not (p.keyword_only or p.var_positional
                                                  or p.var_keyword)]
        if len(rest) > len(slots) and not any(p.var_positional for p in self.params):
            self._count_error(len(rest), slots)
        for param in self.params:
            if param.var_positional:
                given[param.name] = tuple(rest)
                rest = []
            elif rest and not param.keyword_only and not param.var_keyword:
                given[param.name] = rest.pop(0)
        extra = {}
        var_keyword = next((p for p in self.params if p.var_keyword), None)
        for key, value in kwargs.items():
            param = next((p for p in self.params if p.name == key and not (
                p.var_positional or p.var_keyword or p.positional_only)), None)
            if param is None:
                if var_keyword is None and self.style != "keywords":
                    self._keyword_error(key)
                extra[key] = value  # (Argument Clinic names it after a missing argument)
            elif key in given:
                raise errors.type_error(f"{self.title}() got multiple values for argument '{key}'")
            else:
                given[key] = value
        for index, param in enumerate(self.params):
            if param.var_keyword:
                keywords.update(extra)
                continue
            value = given.get(param.name, param.default)
            if value is _REQUIRED:
                if self.style == "parser":  # torch's parser checks in order, up to the gap
                    self._check_types(given, len(args), index)
                self._missing_error(given, slots, len(args))
            if param.expects in ("ScalarType", "ScalarType?"):  # float, int, bool as dtypes
                value = dtypes.dtype_argument(value)
            if param.var_positional:
                positional.extend(value)
            elif param.keyword_only:
                keywords[param.name] = value
            else:
                positional.append(value)
        if extra and var_keyword is None:
            self._keyword_error(next(iter(extra)))
        self._check_types(given, len(args), len(self.params))
        return positional, keywords

    def _check_types(self, given: dict, positional_count: int, upto: int) -> None:
        """torch's complaint about the first of params[:upto] that is not what it expects."""
        method = self.params and self.params[0].name == "self"
        checked = sorted((p.check_order, index, p) for index, p in enumerate(self.params[:upto])
                         if p.expects is not None and p.name in given)
        for _, index, param in checked:
            # a type's complaint comes from the C++ function torch's code calls: this name, its
            # in-place form (`Tensor@inplace`) or another (`Tensor@nll_loss_nd`)
            title, value = self.name, given[param.name]
            if "@" in param.expects:
                kind, _, called = param.expects.partition("@")
                called, _, renamed = called.partition(":")  # the callee's parameter name
                param = replace(param, expects=kind, name=renamed or param.name)
                title = (self.name + ("_" if _is_true(given.get("inplace")) else "")
                         if called == "inplace" else called)
            # torch's Python code hands its arguments on by position, so a keyword has one too
            positional = index < positional_count or self.style == "python"
            _check_expected(title, param, value, index + (not method) if positional else None)

    def _missing_error(self, given: dict, slots: list[Param], count: int):
        missing = [p for p in self.params if p.default is _REQUIRED and p.name not in given
                   and not (p.var_positional or p.var_keyword)]
        names = [p.name for p in missing if not p.keyword_only]
        if names[:1] == ["self"] and self.qualname.rpartition(".")[0] in C_CLASSES:
            raise errors.type_error(f"unbound method {self.qualname}() needs an argument")
        if self.style == "keywords" and not missing[0].positional_only:  # Argument Clinic's
            receiver = self.params[0].name == "self"
            position = self.params.index(missing[0]) + 1 - receiver
            raise errors.type_error(f"{self.clinic_name}() missing required argument "
                                    f"'{missing[0].name}' (pos {position})")
        if self.style == "python":
            raise errors.type_error(missing_arguments(
                self.title, names or [p.name for p in missing],
                "required positional argument" if names else "required keyword-only argument"))
        if self.style == "parser":
            raise errors.type_error(
                f"{self.title}() missing {len(names)} required positional argument"
                f"{'s' if len(names) == 1 else ''}: " + ", ".join(f'"{n}"' for n in names))
        self._count_error(count, slots)

    def _count_error(self, count: int, slots: list[Param]):
        most = len(slots)
        # torch's parser counts keyword-only parameters without a default among the least
        least = sum(1 for p in (self.params if self.style == "parser" else slots)
                    if p.default is _REQUIRED and not (p.var_positional or p.var_keyword))
        if self.style in _WITHOUT_RECEIVER and slots and slots[0].name == "self":
            count, most, least = count - 1, most - 1, least - 1  # the receiver is not counted
        if self.style == "new":  # a class's __new__: Python counts the class
            count, most, least = count + 1, most + 1, least + 1
        if self.style == "noargs":
            raise errors.type_error(f"{self.title}() takes no arguments ({count} given)")
        if self.style == "exact":
            raise errors.type_error(
                f"{self.title}() takes exactly one argument ({count} given)")
        if self.style in ("expected", "wrapper"):
            bound = "at most" if count > most else "at least"
            number = f"{bound} {most if count > most else least}" if least != most else most
            # a slot wrapper checks one argument unnamed, unpacks more with the name ""
            name = self.clinic_name + " " if self.style == "expected" else " " * (most >= 2)
            raise errors.type_error(f"{name}expected {number} argument"
                                    f"{'s' if (most if count > most else least) != 1 else ''}, "
                                    f"got {count}")
        if self.style == "keywords":
            self._keywords_count_error(count, most, least)
        if self.style == "at_most":
            if count > most:
                raise errors.type_error(f"{self.clinic_name}() takes at most "
                                        f"{_plural(most, 'argument')} ({count} given)")
            raise errors.type_error(f"{self.clinic_name}() takes at least "
                                    f"{_plural(least, 'argument')} ({count} given)")
        if least != most:  # "were" whatever the count, in Python's wording and torch's
            raise errors.type_error(f"{self.title}() takes from {least} to {most} positional "
                                    f"arguments but {count} were given")
        raise errors.type_error(f"{self.title}() takes {_plural(most, 'positional argument')} "
                                f"but {count} {'was' if count == 1 else 'were'} given")

    def _keywords_count_error(self, count: int, most: int, least: int):
        """Argument Clinic's keyword parser's complaint (its receiver left out of the counts):
        more arguments than it has parameters, more positional ones than it takes, or fewer
        than its positional-only ones."""
        total = sum(1 for p in self.params if not (p.var_positional or p.var_keyword)) - (
            bool(self.params) and self.params[0].name == "self")
        if count > total:
            raise errors.type_error(f"{self.clinic_name}() takes at most "
                                    f"{_plural(total, 'argument')} ({count} given)")
        if most == 0:
            raise errors.type_error(f"{self.clinic_name}() takes no positional arguments")
        bound = "exactly" if least == most else "at most" if count > most else "at least"
        raise errors.type_error(f"{self.clinic_name}() takes {bound} "
                                f"{_plural(most if count > most else least, 'positional argument')}"
                                f" ({count} given)")

    def _keyword_error(self, key: str):
        if self.style == "noargs":
            raise errors.type_error(f"{self.title}() takes no keyword arguments")
        if self.style == "wrapper":
            raise errors.type_error(f"wrapper {self.name}() takes no keyword arguments")
        if self.style in ("python", "parser", "new"):
            raise errors.type_error(f"{self.title}() got an unexpected keyword argument '{key}'")
        if all(p.positional_only or p.var_positional for p in self.params):
            raise errors.type_error(f"{self.title}() takes no keyword arguments")
        title = "sort" if self.title == "sorted" else self.clinic_name  # sorted() says sort()
        raise errors.type_error(f"'{key}' is an invalid keyword argument for {title}()")


def entry(name: str, fn: Callable, spec: str = "", *, context: bool = False,
          qualname: str = "", style: str = "python", frames: int = 1,
          while_doing: str = "calling a Python object") -> Builtin:
    return Builtin(name, fn, spec, context, qualname, style, frames, while_doing)


def table(*entries: Builtin) -> dict[str, Builtin]:
    return {e.name: e for e in entries}


@record(frozen=True)
class WrappedBuiltin(Builtin):
    """A Python function torch returns around a program's function, made with functools.wraps
    (torch.func's transforms): named, and shown, as the function it wraps."""

    wrapped: object = None


@record(frozen=True)
class DeclaredBuiltin(Builtin):
    """A declared torch function: arguments bind as torch's argument parser binds them."""

    declaration: object = None
    variant: str = "torch"

    def bind(self, args: list, kwargs: dict) -> tuple[list, dict]:
        return self.declaration.bind(tuple(args), dict(kwargs), self.variant)


def declared_entry(declaration, variant: str) -> DeclaredBuiltin:
    """The table entry of one engine declaration, for torch.X or Tensor.X."""
    return DeclaredBuiltin(declaration.name, declaration, (), declaration=declaration,
                           variant=variant)

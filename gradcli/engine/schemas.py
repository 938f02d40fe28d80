"""torch's function schemas and its Python argument parser: overload choice, binding, TypeErrors.

A schema reads as in native_functions.yaml, without the overload name and return type:
`add(Tensor self, Tensor other, *, Scalar alpha=1)`. Binding follows torch's PythonArgParser:
each overload is tried in order; when none fits, the error is the one overload's own complaint
if only one could take that many arguments, else torch's "invalid combination" listing.
"""

from __future__ import annotations

import functools
from gradcli.engine.records import record

import numpy as np

from gradcli.engine import dtypes, errors, memory_format
from gradcli.engine.dtypes import DType
from gradcli.engine.tensor import Tensor, require_tensors

_MISSING = object()

# schema type -> the name torch's messages give it
_DISPLAY = {"Tensor": "Tensor", "Scalar": "Number", "int": "int", "float": "float",
            "bool": "bool", "str": "str", "int[]": "tuple of ints", "float[]": "tuple of floats",
            "ScalarType": "torch.dtype", "Tensor[]": "tuple of Tensors", "Scalar[]": "tuple of Scalars",
            "Generator": "torch.Generator", "Device": "torch.device", "Layout": "torch.layout",
            "MemoryFormat": "torch.memory_format"}


_KNOWN_TYPES = frozenset(_DISPLAY) | {f"int[{n}]" for n in range(1, 7)} | {"Tensor?[]"}


@record(frozen=True)
class Param:
    type: str  # a key of _DISPLAY
    name: str
    optional: bool  # None is accepted
    default: object  # _MISSING when required
    default_text: str
    keyword_only: bool
    sized: bool = False  # int[N]: a lone int is also accepted (torch's IntArrayRef[N])

    def python_name(self, is_function: bool) -> str:
        """torch calls a function's Tensor `self` argument `input` in Python."""
        return "input" if self.name == "self" and is_function and self.type == "Tensor" else (
            self.name)

    def display(self, is_function: bool) -> str:
        name = self.python_name(is_function)
        text = f"{_DISPLAY[self.type]} {name}"
        return text if self.default is _MISSING else f"{text} = {self.default_text}"


@record(frozen=True)
class Schema:
    name: str
    params: tuple[Param, ...]

    @property
    def positional(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.keyword_only)


def parse_schema(text: str) -> Schema:
    """`name(Type arg, Type? arg=default, *, ...)` -> Schema."""
    name, _, rest = text.partition("(")
    if type_names := {part.split()[0].rstrip("?") for part in rest[:-1].split(",")
                      if " " in part.strip() and part.strip() != "*"} - _KNOWN_TYPES:
        raise ValueError(f"{name}: unknown schema types {sorted(type_names)}")
    params, keyword_only = [], False
    for part in filter(None, (p.strip() for p in _top_level_split(rest[:-1]))):
        if part == "*":
            keyword_only = True
            continue
        declared, _, default_text = part.partition("=")
        type_text, arg = declared.split()
        optional = type_text.endswith("?")
        # Tensor?[]: from Python, a list of tensors all the same (torch's parser refuses None)
        base = type_text.rstrip("?").replace("Tensor?[]", "Tensor[]")
        sized = base.startswith("int[") and base != "int[]"
        base = "int[]" if sized else base
        default = _parse_default(default_text) if default_text else _MISSING
        params.append(Param(base, arg, optional or default is None, default,
                            _display_default(default_text), keyword_only, sized))
    return Schema(name, tuple(params))


def _top_level_split(text: str) -> list:
    """`text` split at the commas outside brackets (a default may be a list: dim=[-2,-1])."""
    if "[" not in text:
        return text.split(",")
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def _parse_default(text: str):
    if text in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[text]
    if text.startswith("["):
        return tuple(int(v) for v in text[1:-1].split(",") if v)
    if text.startswith(("'", '"')):
        return text[1:-1]
    if text.startswith("at::"):  # torch's Python parser reads a C++ constant as 0
        return 0
    if text.isidentifier():  # a named constant: a memory format, else passed as written
        return memory_format.BY_NAME.get(text, text)
    return float(text) if any(c in text for c in ".e") else int(text)


def _display_default(text: str) -> str:
    return "()" if text == "[]" else text.replace("[", "{").replace("]", "}")


# ---- what each type accepts ---------------------------------------------------------------------

def _is_int(value) -> bool:
    return (type(value) is int or isinstance(value, np.integer)
            or (isinstance(value, Tensor) and value.numel() == 1
                and not value.dtype.is_floating_point and value.dtype.name != "bool"))


def _as_int(value):
    return int(value.data.reshape(()).item()) if isinstance(value, Tensor) else int(value)


def _is_number(value) -> bool:
    return isinstance(value, (bool, int, float, complex, np.number, np.bool_))


def _is_number_tensor(value) -> bool:
    """A 0-dim tensor outside autograd: what torch's parser accepts for a Scalar or a float."""
    return isinstance(value, Tensor) and value.ndim == 0 and not value.requires_grad


def _unpacks(index: int, value) -> bool:
    """Whether the parser takes `value` at `index` of an int list: it checks the first element
    for an int, then unpacks the others as indices (a bool is one)."""
    return _is_int(value) or (index > 0 and isinstance(value, (bool, np.bool_)))


def int_list_error(title: str, name: str, position: int, values) -> errors.TorchError:
    """torch's parser on a list for an int[] argument with an element it cannot take: the first
    element is checked for an int (at any position), the others unpacked as indices."""
    wrong = next(i for i, v in enumerate(values) if not _unpacks(i, v))
    if wrong == 0:
        return errors.type_error(
            f"{title}(): argument '{name}' (position {position}) must be tuple of ints, but "
            f"found element of type {_type_name(values[0])} at pos 0")
    return errors.type_error(
        f"{title}(): argument '{name}' failed to unpack the object at pos {wrong + 1} with "
        f"error \"type must be tuple of ints,but got {_type_name(values[wrong])}\"")


def _int_list(value, sized: bool = True):
    """An int (when `sized`) or a sequence of ints as a tuple, else None."""
    if _is_int(value) and sized:
        return (_as_int(value),)
    if isinstance(value, (tuple, list)) and all(_unpacks(i, v) for i, v in enumerate(value)):
        return tuple(_as_int(v) for v in value)
    return None


def _convert(param: Param, value, numbers_as_tensors: bool):
    """(ok, converted value) for one argument against its declared type."""
    if value is None:
        if param.sized and param.default == ():  # torch's parser takes None as an empty int[N]
            return True, ()
        return param.optional, None
    kind = param.type
    if kind == "Tensor":
        if numbers_as_tensors and _is_number(value):
            return True, dtypes.python_number(value)
        return isinstance(value, Tensor), value
    if kind in ("Scalar", "float") and _is_number_tensor(value):
        return True, value.data.item()  # torch's parser takes a 0-dim tensor as its number
    if kind == "Scalar":  # a NumPy scalar as a Python number
        return _is_number(value), dtypes.python_number(value)
    if kind == "int":
        return (True, _as_int(value)) if _is_int(value) and type(value) is not bool else (
            False, value)
    if kind == "float":  # a bool is a Python int here
        return isinstance(value, (int, float, np.floating, np.integer)), dtypes.python_number(value)
    if kind == "bool":
        return isinstance(value, (bool, np.bool_)), value
    if kind == "str":
        return isinstance(value, str), value
    if kind == "int[]":
        converted = _int_list(value, param.sized)
        return converted is not None, converted
    if kind == "float[]":
        real = lambda v: _is_number(v) and not isinstance(v, (complex, np.complexfloating))
        ok = isinstance(value, (tuple, list)) and all(real(v) for v in value)
        return ok or real(value), value
    if kind == "Scalar[]":
        ok = isinstance(value, (tuple, list)) and all(_is_number(v) for v in value)
        return ok, tuple(dtypes.python_number(v) for v in value) if ok else value
    if kind == "ScalarType":
        value = dtypes.dtype_argument(value)
        return isinstance(value, DType), value
    if kind == "Tensor[]":
        return isinstance(value, (tuple, list)) and all(isinstance(v, Tensor) for v in value), \
            value
    if kind == "Generator":
        from gradcli.engine.random import Generator
        return isinstance(value, Generator), value
    if kind == "Device":  # a device, its name or an index
        from gradcli.engine.devices import Device
        return isinstance(value, (Device, str)) or type(value) is int, value
    if kind == "MemoryFormat":
        return isinstance(value, memory_format.MemoryFormat), value
    return True, value  # Layout: checked by the function


def _type_name(value) -> str:
    if isinstance(value, Tensor):
        return "Parameter" if value.is_parameter else "Tensor"
    if isinstance(value, DType):
        return "torch.dtype"
    return "NoneType" if value is None else errors.type_name(value)


# ---- binding ---------------------------------------------------------------------------------------

class _Mismatch(Exception):
    """One overload does not fit; `error` is what torch says when it is the only candidate."""

    def __init__(self, error):
        super().__init__()
        self.error = error


def _bind_one(schema: Schema, args: tuple, kwargs: dict, title: str, is_function: bool,
              numbers_as_tensors: bool) -> dict:
    """Bind to one overload: {param name: value}, or _Mismatch carrying torch's complaint."""
    params = schema.params if is_function else method_params(schema)
    positional = [p for p in params if not p.keyword_only]
    args = _gather_varargs_intlist(positional, args, title)
    if len(args) > len(positional):
        least = sum(1 for p in params if p.default is _MISSING)  # keyword-only ones too
        if least != len(positional):
            raise _Mismatch(errors.type_error(
                f"{title}() takes from {least} to {len(positional)} positional arguments but "
                f"{len(args)} were given"))
        raise _Mismatch(errors.type_error(
            f"{title}() takes {len(positional)} positional argument"
            f"{'s' if len(positional) != 1 else ''} but {len(args)} "
            f"{'was' if len(args) == 1 else 'were'} given"))
    bound, remaining = {}, dict(kwargs)
    for index, param in enumerate(params):
        shown = param.python_name(is_function)
        spelling = next((n for n in (shown, *_NUMPY_NAMES.get(shown, ())) if n in remaining),
                        None)
        if index < len(args) and not param.keyword_only:
            if spelling is not None:
                raise _Mismatch(errors.type_error(
                    f"{title}() got multiple values for argument '{shown}'"))
            value, position = args[index], index + 1
        elif spelling is not None:
            value, position = remaining.pop(spelling), None
        else:
            value, position = _MISSING, None
        if value is _MISSING:
            if param.default is _MISSING:
                missing = [p.python_name(is_function) for p in params[index:]
                           if p.default is _MISSING and p.python_name(is_function) not in remaining]
                raise _Mismatch(errors.type_error(
                    f"{title}() missing {len(missing)} required positional argument"
                    f"{'s' if len(missing) == 1 else ''}: "
                    + ", ".join(f'"{m}"' for m in missing)))
            bound[param.name] = param.default
            continue
        ok, converted = _convert(param, value, numbers_as_tensors)
        if not ok and param.type == "Tensor[]" and isinstance(value, (tuple, list)):
            require_tensors(value, index)  # torch's parser fails at once, whatever the overload
        if not ok and param.type == "int[]" and isinstance(value, (tuple, list)):
            raise _Mismatch(int_list_error(title, shown, index + 1, value))
        if not ok:
            where = f" (position {position})" if position is not None else ""
            raise _Mismatch(errors.type_error(
                f"{title}(): argument '{shown}'{where} must be {_DISPLAY[param.type]}, not "
                f"{_type_name(value)}"))
        bound[param.name] = converted
    if remaining:
        # torch names the first keyword, in the call's order, that is no parameter's own name
        # (a NumPy spelling such as `axis` counts as unknown here, even when it was taken)
        names = {p.python_name(is_function) for p in params}
        key = next(k for k in kwargs if k not in names)
        raise _Mismatch(errors.type_error(f"{title}() got an unexpected keyword argument '{key}'"))
    return bound


# NumPy's spellings torch's parser also accepts for some parameter names
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
                "other": ("x2",)}


def _gather_varargs_intlist(positional: list, args: tuple, title: str) -> tuple:
    """torch's `view(2, 3)` form: when an int list is the only positional parameter, ints
    spread over the arguments fill it (a later non-int is torch's unpacking error)."""
    if len(positional) == 1 and positional[0].type == "int[]" and not positional[0].sized and (
            args and _is_int(args[0])):
        wrong = next((i for i, v in enumerate(args) if not _unpacks(i, v)), None)
        if wrong is not None:
            raise errors.type_error(
                f"{title}(): argument '{positional[0].name}' failed to unpack the object at pos "
                f"{wrong + 1} with error \"type must be tuple of ints,but got "
                f"{_type_name(args[wrong])}\"")
        return (tuple(args),)
    return args


def _plausible(schema: Schema, count: int, is_function: bool) -> bool:
    params = schema.params if is_function else method_params(schema)
    least = sum(1 for p in params if p.default is _MISSING)
    return least <= count <= len(params)


def bind(schemas: tuple[Schema, ...], args: tuple, kwargs: dict, is_function: bool,
         title: str, hidden: tuple[Schema, ...] = (), numbers_as_tensors: bool = False
         ) -> tuple[int, dict]:
    """(index of the chosen overload, {param name: value}) as torch's argument parser binds.
    `hidden` overloads (torch's deprecated forms) bind but are never shown in messages."""
    if not is_function and all(len(s.params) == 1 for s in schemas) and (args or kwargs):
        if kwargs:
            raise errors.type_error(f"TensorBase.{title}() takes no keyword arguments")
        raise errors.type_error(
            f"TensorBase.{title}() takes no arguments ({len(args)} given)")
    failures = []
    for index, schema in enumerate(schemas + hidden):
        try:
            return index, _bind_one(schema, args, kwargs, title, is_function,
                                    numbers_as_tensors)
        except _Mismatch as mismatch:
            failures.append(mismatch.error)
    if len(schemas) + len(hidden) == 1:
        raise failures[0]
    count = len(args) + len(kwargs)
    plausible = [i for i, s in enumerate(schemas) if _plausible(s, count, is_function)]
    if len(plausible) == 1:
        raise failures[plausible[0]]
    raise errors.type_error(_invalid_combination(schemas, args, kwargs, title, is_function))


@functools.cache
def _cpp_schemas(texts: str | tuple) -> tuple:
    return tuple(map(parse_schema, (texts,) if isinstance(texts, str) else texts))


def bind_cpp(texts: str | tuple, *args, **kwargs) -> dict:
    """torch's Python code calling the C++ function whose schema (or overloads' schemas) is
    `texts`, parsed once: {param name: value} as its parser binds `args`, or its TypeError."""
    overloads = _cpp_schemas(texts)
    return bind(overloads, args, kwargs, True, overloads[0].name)[1]


def method_params(schema: Schema) -> tuple:
    """An overload's parameters as a Tensor method takes them: without `self`, which is not
    always the first (torch's deprecated `addmm(Scalar beta, Tensor self, ...)`)."""
    if any(p.name == "self" for p in schema.params):
        return tuple(p for p in schema.params if p.name != "self")
    return schema.params[1:]


def without_out(schema: Schema) -> Schema:
    """The Tensor method's form of a torch function's overload: no `out=`."""
    return Schema(schema.name, tuple(p for p in schema.params if p.name != "out"))


def _invalid_combination(schemas, args, kwargs, title: str, is_function: bool) -> str:
    return invalid_combination([display_signature(s, is_function) for s in schemas], args,
                               kwargs, title)


def invalid_combination(options: list, args, kwargs, title: str) -> str:
    """torch's format_invalid_args: the arguments given, then the overloads (as its messages
    show them, `(Tensor input, *, int dim = 0)`) it expected."""
    kwargs = {key: kwargs[key] for key in unordered_map_order(kwargs)}
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    got_text = ", ".join(got) + (", " if kwargs and not args else "")
    start = f"{title}() received an invalid combination of arguments - "
    if len(options) == 1:
        option = options[0]
        unmatched = _unmatched_keywords(option, kwargs)
        if unmatched:
            return start + "got unrecognized keyword arguments: " + ", ".join(unmatched)
        if _count_matches(option, args, kwargs):
            got_text = _marked_types(option, args)[1:-1]
        return start + f"got ({got_text}), but expected {option}"
    listing = "".join(f" * {option}\n" + _why_not(option, args, kwargs) for option in options)
    return start + f"got ({got_text}), but expected one of:\n{listing}"


# torch reads its own overload texts crudely when it explains a mismatch: the parts between
# commas ("Tensor input", "*", "int dim = 0") count as arguments, and the words before a part's
# last space name the type an argument's type name must equal.

def _count_matches(option: str, args: tuple, kwargs: dict) -> bool:
    items = option[1:-1].split(", ")
    count = len(args) + len(kwargs)
    return count == len(items) or ("..." in option and count > len(items))


def _unmatched_keywords(option: str, kwargs: dict) -> list[str]:
    items = option[1:-1].split(", ")
    names = {item.rpartition(" ")[2] for item in items[max(len(items) - len(kwargs), 0):]}
    return [key for key in kwargs if key not in names]


def _why_not(option: str, args: tuple, kwargs: dict) -> str:
    """The line under an overload whose part count equals the number of arguments given:
    which keywords it lacks, else each argument's type, `!marked!` where it does not fit."""
    if not _count_matches(option, args, kwargs):
        return ""
    unmatched = _unmatched_keywords(option, kwargs)
    if unmatched:
        return ("      didn't match because some of the keywords were incorrect: "
                + ", ".join(unmatched) + "\n")
    return ("      didn't match because some of the arguments have invalid types: "
            + _marked_types(option, args) + "\n")


def _marked_types(option: str, args: tuple) -> str:
    items = option[1:-1].split(", ")
    marked = []
    for index, value in enumerate(args):
        item = items[index] if index < len(items) else items[-1] if "..." in option else None
        shown = _described(value)
        marked.append(shown if item is not None and _item_accepts(item, value)
                      else f"!{shown}!")
    return "(" + ", ".join(marked) + ")"


def _item_accepts(item: str, value) -> bool:
    end = item.rfind(" ")
    if "..." in item:
        end -= 4
    type_name = item[:end] if end >= 0 else item
    accepted = {"float": ("float", "int"), "int": ("int",)}.get(type_name, (type_name,))
    return _type_name(value) in accepted


def _described(value) -> str:
    """An argument as torch's messages describe it: `tuple of (int, int)`, `list of [float]`."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_type_name(v) for v in value)
        if isinstance(value, tuple):
            return f"tuple of ({inner}{',' if len(value) == 1 else ''})"
        return f"list of [{inner}]"
    return _type_name(value)


def display_signature(schema: Schema, is_function: bool) -> str:
    """An overload as torch's messages show it: `(Tensor input, *, Number alpha = 1, ...)`."""
    params = schema.params if is_function else method_params(schema)
    parts, star = [], False
    for param in params:
        if param.keyword_only and not star:
            parts.append("*")
            star = True
        parts.append(param.display(is_function))
    return f"({', '.join(parts)})"


# ---- the order torch lists keywords in ---------------------------------------------------------

_MASK = (1 << 64) - 1
_MURMUR = 0xC6A4A7935BD1E995


def _std_hash(text: str) -> int:
    """libstdc++'s std::hash<std::string> (_Hash_bytes, 64-bit, seed 0xc70f6907)."""
    data = text.encode()
    length, aligned = len(data), len(data) & ~7
    value = 0xC70F6907 ^ (length * _MURMUR & _MASK)
    for start in range(0, aligned, 8):
        word = int.from_bytes(data[start:start + 8], "little") * _MURMUR & _MASK
        value = (value ^ ((word ^ word >> 47) * _MURMUR & _MASK)) * _MURMUR & _MASK
    if length & 7:
        value = (value ^ int.from_bytes(data[aligned:], "little")) * _MURMUR & _MASK
    value ^= value >> 47
    value = value * _MURMUR & _MASK
    return value ^ value >> 47


def _next_prime(n: int) -> int:
    while any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)):
        n += 1
    return n


def unordered_map_order(keys) -> list[str]:
    """`keys` in the order a libstdc++ std::unordered_map<std::string, ...> filled in that order
    iterates them, as torch's invalid-arguments message lists keywords: a node goes to the front
    of the list when its bucket is empty, else to the front of its bucket's run (a rehash puts
    the nodes, in list order, through the same rule)."""
    order: list[str] = []  # the singly-linked list, from its beginning
    buckets, limit = 1, 0
    for key in keys:
        if len(order) + 1 > limit:  # libstdc++'s prime rehash policy: 13 buckets at first
            wanted = max(len(order) + 1, 0 if limit else 11)
            if wanted >= buckets:
                buckets = 13 if buckets == 1 else _next_prime(max(wanted + 1, buckets * 2))
                order = _inserted([], order, buckets)
            limit = buckets
        order = _inserted(order, [key], buckets)
    return order


def _inserted(order: list[str], keys: list[str], buckets: int) -> list[str]:
    for key in keys:
        bucket = _std_hash(key) % buckets
        first = next((i for i, k in enumerate(order) if _std_hash(k) % buckets == bucket), None)
        order.insert(0 if first is None else first, key)
    return order

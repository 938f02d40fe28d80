"""Python's `json` on strings (dumps, loads), as scripts write configs and metrics: Python's own
encoder and decoder; a value JSON has no form for goes to the program's `default=`, else fails
with Python's TypeError naming its language type. Files (dump, load) are refused."""

from __future__ import annotations

import json

from gradcli.engine import errors
from gradcli.language.namespaces.python_io import host_errors
from gradcli.language.runtime import protocols
from gradcli.language.runtime.exceptions import register_exception
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name

DECODE_ERROR = PyType("json.decoder.JSONDecodeError", (json.JSONDecodeError,))
register_exception(DECODE_ERROR)


def _dumps(ctx, obj, *, skipkeys=False, ensure_ascii=True, check_circular=True,
           allow_nan=True, cls=None, indent=None, separators=None, default=None,
           sort_keys=False):
    if cls is not None:
        raise errors.TorchError("NotImplementedError", "gradcli's json.dumps takes no cls")

    def fallback(value):
        if default is not None:
            return ctx.call(default, [value], {})
        name = protocols.type_of(value).name.rsplit(".", 1)[-1]  # the class's __name__
        raise errors.type_error(f"Object of type {name} is not JSON serializable")
    separators = None if separators is None else tuple(separators)
    with host_errors():
        return json.dumps(obj, skipkeys=skipkeys, ensure_ascii=ensure_ascii,
                          check_circular=check_circular, allow_nan=allow_nan, indent=indent,
                          separators=separators, default=fallback, sort_keys=sort_keys)


def _loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None,
           parse_constant=None, object_pairs_hook=None):
    if any(hook is not None for hook in (cls, object_hook, parse_float, parse_int,
                                         parse_constant, object_pairs_hook)):
        raise errors.TorchError("NotImplementedError", "gradcli's json.loads takes no hooks")
    if not isinstance(s, (str, bytes, bytearray)):
        raise errors.type_error(f"the JSON object must be str, bytes or bytearray, not "
                                f"{type_name(s)}")
    try:
        return json.loads(s)
    except json.JSONDecodeError as error:
        raise errors.TorchError("JSONDecodeError", str(error),
                                (error.msg, error.doc, error.pos)) from None
    except (TypeError, ValueError) as error:  # bytes in no JSON encoding
        raise errors.TorchError(type(error).__name__, str(error)) from None


def _files(name: str):
    def refuse(*args, **kwargs):
        raise errors.TorchError("NotImplementedError", f"gradcli does not support json.{name}: "
                                "a program reaches no files (json.dumps and json.loads work)")
    return entry(name, refuse, "*args, **kwargs", frames=0)


JSON = Namespace("json", table(
    entry("dumps", _dumps, "obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, "
          "allow_nan=True, cls=None, indent=None, separators=None, default=None, "
          "sort_keys=False", context=True, frames=0),
    entry("loads", _loads, "s, *, cls=None, object_hook=None, parse_float=None, "
          "parse_int=None, parse_constant=None, object_pairs_hook=None", frames=0),
    _files("dump"), _files("load"),
) | {"JSONDecodeError": DECODE_ERROR})

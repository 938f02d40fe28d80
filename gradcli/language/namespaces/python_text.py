"""Python's `string`, `unicodedata` and `re` modules as text tutorials use them (string.ascii_letters,
unicodedata.normalize and category to strip accents, re.sub to normalize sentences): Python's own
constants and functions, whose TypeErrors and ValueErrors are the program's. re's functions that
give match or pattern objects are not offered."""

from __future__ import annotations

import re
import string
import unicodedata

from gradcli.engine import errors
from gradcli.language.namespaces.python_warnings import RE_ERROR
from gradcli.language.runtime import protocols
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_CONSTANTS = ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
              "octdigits", "punctuation", "printable", "whitespace")


def _checked(host):
    """Python's function, its argument errors raised as the program's exceptions."""
    def call(*args, **kwargs):
        try:
            return host(*args, **kwargs)
        except re.error as error:
            raise errors.TorchError("error", str(error)) from None
        except TypeError as error:
            raise errors.type_error(str(error)) from None
        except ValueError as error:
            raise errors.value_error(str(error)) from None
        except KeyError as error:
            raise errors.TorchError("KeyError", error.args[0]) from None
        except AttributeError as error:
            raise errors.TorchError("AttributeError", str(error)) from None
    return call


STRING = Namespace("string", table(
    entry("capwords", _checked(string.capwords), "*args, **kwargs", frames=0),
) | {name: vars(string)[name] for name in _CONSTANTS})

_FUNCTIONS = ("normalize", "is_normalized", "lookup", "category", "bidirectional", "combining",
              "east_asian_width", "mirrored", "decomposition", "name", "decimal", "digit",
              "numeric")

# arguments go to Python's function as given, so its argument errors are Python's own
UNICODEDATA = Namespace("unicodedata", table(*(
    entry(name, _checked(vars(unicodedata)[name]), "*args, **kwargs", frames=0)
    for name in _FUNCTIONS)) | {"unidata_version": unicodedata.unidata_version})




def _replacing(host):
    """re.sub and re.subn with a replacement string (a function would be handed match objects)."""
    checked = _checked(host)

    def call(pattern, repl, string, count=0, flags=0):
        if not isinstance(repl, (str, bytes)) and protocols.is_callable(repl):
            raise errors.TorchError("NotImplementedError", f"gradcli does not support re."
                                    f"{host.__name__} with a replacement function yet")
        return checked(pattern, repl, string, count, flags)
    return call


RE = Namespace("re", table(
    entry("sub", _replacing(re.sub), "pattern, repl, string, count=0, flags=0"),
    entry("subn", _replacing(re.subn), "pattern, repl, string, count=0, flags=0"),
    entry("split", _checked(re.split), "pattern, string, maxsplit=0, flags=0"),
    entry("findall", _checked(re.findall), "pattern, string, flags=0"),
    entry("escape", _checked(re.escape), "pattern"),
) | {"error": RE_ERROR} | {name: int(vars(re)[name]) for name in (
    "I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "A", "ASCII", "X", "VERBOSE")})

MODULES = {"string": STRING, "unicodedata": UNICODEDATA, "re": RE}

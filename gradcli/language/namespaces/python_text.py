"""Python's `string`, `unicodedata` and `re` modules as text tutorials use them (string.ascii_letters,
unicodedata.normalize and category to strip accents, re.sub to normalize sentences): Python's own
constants and functions, whose TypeErrors and ValueErrors are the program's."""

from __future__ import annotations

import re
import string
import unicodedata

from gradcli.engine import errors
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace

_CONSTANTS = ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
              "octdigits", "punctuation", "printable", "whitespace")


def checked(host):
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
    entry("capwords", checked(string.capwords), "*args, **kwargs", frames=0),
) | {name: vars(string)[name] for name in _CONSTANTS})

_FUNCTIONS = ("normalize", "is_normalized", "lookup", "category", "bidirectional", "combining",
              "east_asian_width", "mirrored", "decomposition", "name", "decimal", "digit",
              "numeric")

# arguments go to Python's function as given, so its argument errors are Python's own
UNICODEDATA = Namespace("unicodedata", table(*(
    entry(name, checked(vars(unicodedata)[name]), "*args, **kwargs", frames=0)
    for name in _FUNCTIONS)) | {"unidata_version": unicodedata.unidata_version})

MODULES = {"string": STRING, "unicodedata": UNICODEDATA}

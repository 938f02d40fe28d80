"""Python's `string`, `unicodedata`, `textwrap` and `keyword` modules as text tutorials use them
(string.ascii_letters and Template, unicodedata.normalize and category to strip accents,
textwrap.fill for reports): Python's own constants and functions, whose TypeErrors and
ValueErrors are the program's."""

from __future__ import annotations

import keyword
import re
import string
import textwrap
import unicodedata

from gradcli.engine import errors
from gradcli.language.runtime.objects import TableObject
from gradcli.language.runtime.pytypes import PyType
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace, type_name

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


class Template(TableObject):
    """string.Template: Python's, its substituted values shown as the language's str()."""

    __slots__ = ("host",)

    def __init__(self, template):
        if not isinstance(template, str):
            raise errors.type_error("expected string or bytes-like object, got "
                                    f"'{type_name(template)}'")
        self.host = string.Template(template)

    @property
    def language_type(self) -> PyType:
        return TEMPLATE_TYPE

    def attribute(self, name: str):
        if name == "template":
            return self.host.template
        if name not in ("substitute", "safe_substitute"):
            raise self.missing(name)
        substitute = self.host.substitute if name == "substitute" else self.host.safe_substitute

        def call(ctx, mapping=None, /, **kws):
            shown = {key: value if isinstance(value, str) else ctx.printer.str(value)
                     for key, value in {**(mapping or {}), **kws}.items()}
            return checked(substitute)(shown)
        return entry(name, call, "mapping=None, /, **kws", context=True,
                     qualname=f"Template.{name}")

    def set_attribute(self, name: str, value) -> None:
        raise self.missing(name)

    def repr(self, printer) -> str:
        return f"<string.Template object at 0x{id(self):x}>"


TEMPLATE_TYPE = PyType("string.Template", (Template,), entry(
    "Template", Template, "template", frames=0))
STRING = Namespace("string", table(
    entry("capwords", checked(string.capwords), "*args, **kwargs", frames=0),
) | {name: vars(string)[name] for name in _CONSTANTS} | {"Template": TEMPLATE_TYPE})

_FUNCTIONS = ("normalize", "is_normalized", "lookup", "category", "bidirectional", "combining",
              "east_asian_width", "mirrored", "decomposition", "name", "decimal", "digit",
              "numeric")

# arguments go to Python's function as given, so its argument errors are Python's own
UNICODEDATA = Namespace("unicodedata", table(*(
    entry(name, checked(vars(unicodedata)[name]), "*args, **kwargs", frames=0)
    for name in _FUNCTIONS)) | {"unidata_version": unicodedata.unidata_version})



def _indent(text, prefix, predicate=None):
    """textwrap.indent (a predicate, the program's function, is not taken)."""
    if predicate is not None:
        raise errors.TorchError("NotImplementedError",
                                "gradcli does not support textwrap.indent's predicate yet")
    return textwrap.indent(text, prefix)


# wrapping and indenting plain text: Python's functions, their keyword options as TextWrapper's
TEXTWRAP = Namespace("textwrap", table(
    *(entry(name, checked(vars(textwrap)[name]), signature, frames=0) for name, signature in (
        ("wrap", "text, width=70, **kwargs"), ("fill", "text, width=70, **kwargs"),
        ("shorten", "text, width, **kwargs"), ("dedent", "text"))),
    entry("indent", checked(_indent), "text, prefix, predicate=None", frames=0),
))

# which names are Python's keywords (a code generator's or tokenizer's check)
KEYWORD = Namespace("keyword", table(
    entry("iskeyword", lambda s: keyword.iskeyword(s) if isinstance(s, str) else False, "s, /",
          frames=0),
    entry("issoftkeyword", lambda s: keyword.issoftkeyword(s) if isinstance(s, str) else False,
          "s, /", frames=0),
) | {"kwlist": list(keyword.kwlist), "softkwlist": list(keyword.softkwlist)})

MODULES = {"string": STRING, "unicodedata": UNICODEDATA, "textwrap": TEXTWRAP, "keyword": KEYWORD}

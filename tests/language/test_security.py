"""User text never reaches Python's own evaluation: no eval, exec, compile, __import__ or
importlib in the package, and getattr/setattr/delattr/hasattr only with constant names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "gradcli"
# lark's standalone parser, generated from the grammar (grammar/generate_parser.py), is lark's own
# runtime: user text reaches it only as the program it parses
GENERATED = PACKAGE / "language" / "syntax" / "lark_standalone.py"
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if p != GENERATED)
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
NAME_TAKING = {"getattr", "setattr", "delattr", "hasattr"}
FORBIDDEN_MODULES = {"importlib", "runpy", "code", "codeop", "pickle", "marshal", "ctypes"}
# The one module allowed a forbidden import, and why: the parser cache pickles the built parser
# into the user's cache folder and reads it back with an unpickler that resolves only lark's
# runtime classes (tests/language/test_parser_cache.py shows a foreign file is never run); no
# program text or program file ever reaches it.
# The heap module calls glibc's mallopt through ctypes, with constant arguments only.
EXEMPT_IMPORTS = {"language/syntax/parser_cache.py": {"pickle"}, "engine/heap.py": {"ctypes"}}


def findings(source: str, filename: str) -> list[str]:
    """What in one source text could run, or reach, code named by user text."""
    forbidden_modules = FORBIDDEN_MODULES - EXEMPT_IMPORTS.get(filename, set())
    tree = ast.parse(source, filename)
    called = {id(node.func) for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    found = []
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in FORBIDDEN_CALLS:
                found.append(f"{where}: call to {name}()")
            elif name in NAME_TAKING and not (
                    len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                found.append(f"{where}: {name}() with a name that is not a constant")
        elif isinstance(node, ast.Name) and id(node) not in called and \
                node.id in FORBIDDEN_CALLS | NAME_TAKING:
            found.append(f"{where}: reference to {node.id}, which could be called later")
        elif isinstance(node, ast.Import):
            found.extend(f"{where}: import {alias.name}" for alias in node.names
                         if alias.name.split(".")[0] in forbidden_modules)
        elif isinstance(node, ast.ImportFrom) and node.module and \
                node.module.split(".")[0] in forbidden_modules:
            found.append(f"{where}: from {node.module} import ...")
    return found


def test_package_sources_are_found():
    assert len(SOURCES) > 10


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(PACKAGE)) for p in SOURCES])
def test_no_dynamic_evaluation(path):
    assert findings(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))) == []


def test_the_scan_catches_what_it_forbids():
    source = ("import importlib\nfrom importlib import util\nname = input()\neval(name)\n"
              "getattr(obj, name)\nsetattr(obj, 'fixed', 1)\nf = exec\n__import__(name)\n")
    found = "\n".join(findings(source, "bad.py"))
    for expected in ("import importlib", "from importlib import", "call to eval()",
                     "getattr() with a name", "reference to exec", "call to __import__()"):
        assert expected in found
    assert "setattr" not in found


# Programs that try to reach Python's internals through the language's newer doors (user
# classes, NumPy, Python's modules). Each must end in a plain Python error, never succeed.
ESCAPES = {
    "tuple_class": "().__class__",
    "tensor_dict": "torch.ones(1).__dict__",
    "function_globals": "def f():\n    pass\nf.__globals__",
    "class_mro": "class A:\n    pass\ntype(A()).__mro__[-1].__subclasses__()",
    "class_mro_dict": "class A:\n    pass\ntype(A()).__mro__[-1].__dict__",
    "class_bases": ("class A:\n    def f(self):\n        return self.__class__.__bases__[0]"
                    ".__subclasses__()\nA().f()"),
    "exception_mro": ("class E(ValueError):\n    pass\nE.__mro__[1].__init__.__globals__"),
    "exception_traceback": "try:\n    1 / 0\nexcept Exception as e:\n    e.__traceback__",
    "method_func_globals": ("class A:\n    def f(self):\n        pass\nA().f.__func__"
                            ".__globals__"),
    "function_code": "def f():\n    pass\nf.__code__",
    "builtin_self": "len.__self__",
    "vars_of_module": "import math\nvars(math)",
    "super_globals": ("class A:\n    def __init__(self):\n        super().__init__.__globals__\n"
                      "A()"),
    "user_getattr_fishing": ("class A:\n    def __getattr__(self, name):\n"
                             "        return getattr(print, '__self__')\nA().anything"),
    "getattr_on_builtin": "getattr(len, '__self__')",
    "numpy_load": "import numpy as np\nnp.load('x.npy')",
    "numpy_save": "import numpy as np\nnp.save('x.npy', np.zeros(1))",
    "numpy_fromfile": "import numpy as np\nnp.fromfile('x')",
    "numpy_ctypeslib": "import numpy as np\nnp.ctypeslib",
    "numpy_lib": "import numpy as np\nnp.lib",
    "array_ctypes": "import numpy as np\nnp.zeros(1).ctypes",
    "array_base": "import numpy as np\nnp.zeros(1).base",
    "array_tofile": "import numpy as np\nnp.zeros(1).tofile('x')",
    "functools_partial_of_builtin": "import functools\nfunctools.partial(getattr, len)('__self__')",
    "module_import": "import subprocess",
    "sys_modules": "import sys\nsys.modules",
    "sys_stdout_buffer": "import sys\nsys.stdout.buffer",
    "argparse_parser_internals": "import argparse\nargparse.ArgumentParser()._actions",
    "argparse_action_internals": "import argparse\n"
                                 "argparse.ArgumentParser().add_argument('-x').container",
    "open_builtin": "open('x')",
    "name_reassigned": "__name__ = 'subprocess'\nimport subprocess",
    "pyplot_figure_dict": "import matplotlib.pyplot as plt\nplt.figure().__dict__",
    "pyplot_figures_store": "import matplotlib.pyplot as plt\nplt.gcf().figures",
    "pyplot_axes_series": "import matplotlib.pyplot as plt\nplt.gca().series",
    "pyplot_line_class": "import matplotlib.pyplot as plt\nplt.plot([1])[0].__class__",
    "pyplot_module_os": "import matplotlib.pyplot as plt\nplt.os",
    "matplotlib_rc_class": "import matplotlib\nmatplotlib.rcParams.__class__.__init__.__globals__",
    "axes_array_base": "import matplotlib.pyplot as plt\nplt.subplots(1, 2)[1].base",
    "user_getattribute_fishing": ("class A:\n    def __getattribute__(self, name):\n"
                                  "        return object.__getattribute__(len, '__self__')\n"
                                  "A().anything"),
    "type_self_mro": ("class A:\n    def f(self):\n        return type(self).__mro__[-1]"
                      ".__subclasses__()\nA().f()"),
    "itertools_starmap_getattr": ("import itertools\n"
                                  "list(itertools.starmap(getattr, [(len, '__self__')]))"),
    "itertools_accumulate_getattr": ("import itertools\n"
                                     "list(itertools.accumulate([(), '__class__'], getattr))"),
    "functools_reduce_getattr": ("import functools\n"
                                 "functools.reduce(getattr, ['__class__', '__bases__'], ())"),
    "operator_attrgetter_dunder": "import operator\noperator.attrgetter('__class__')(1)",
    "operator_methodcaller_dunder": ("import operator\n"
                                     "operator.methodcaller('__reduce_ex__', 2)(1)"),
    "cmp_to_key_wrapper_class": ("import functools\n"
                                 "functools.cmp_to_key(lambda a, b: 0)(1).__class__"),
    "str_subclass_dict": "class S(str):\n    pass\nS('a').__dict__",
    "int_subclass_host_mro": ("class S(int):\n    pass\n"
                              "S(1).__class__.__mro__[1].__subclasses__()"),
    "builtin_new_globals": "tuple.__new__.__globals__",
    "super_new_globals": ("class S(str):\n    def f(self):\n"
                          "        return super().__new__.__globals__\nS('a').f()"),
    "dataclass_field_class": ("from dataclasses import dataclass, fields\n@dataclass\n"
                              "class A:\n    x: int = 0\nfields(A)[0].__class__"),
    "dataclass_init_globals": ("from dataclasses import dataclass\n@dataclass\n"
                               "class A:\n    x: int = 0\nA.__init__.__globals__"),
    "dataclass_missing_class": "import dataclasses\ndataclasses.MISSING.__class__",
    "name_reassigned_to_builtins": "__name__ = 'builtins'\n__name__.__class__",
    "format_map_dunders": "'{a.__class__.__init__.__globals__}'.format_map({'a': 1})",
    "class_dict_slot_internals": "class A:\n    pass\nA.__dict__['__dict__'].__objclass__",
    "class_dict_class": "class A:\n    pass\ntype(A.__dict__).__init__.__globals__",
    "exitstack_internals": "import contextlib\ncontextlib.ExitStack().stack",
    "descriptor_owner_globals": ("class D:\n    def __get__(self, obj, owner):\n"
                                 "        return owner.__init__.__globals__\n"
                                 "class A:\n    d = D()\nA().d"),
    "typeddict_base_subclasses": ("from typing import TypedDict\nclass B(TypedDict):\n"
                                  "    x: int\nB.__mro__[1].__subclasses__()"),
    "cached_function_internals": ("import functools\n@functools.lru_cache\ndef f():\n"
                                  "    pass\nf.__wrapped__.__globals__"),
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_programs_cannot_reach_python_internals(name):
    from gradcli.language.session import Session
    outcome = Session(write=lambda text: None).run(ESCAPES[name])
    assert outcome.error is not None, name
    assert outcome.error.kind in ("AttributeError", "NameError", "ModuleNotFoundError",
                                  "TypeError"), (name, outcome.error.kind, outcome.error.message)


# What would reach the machine through Python's modules: refused as gradcli's gap.
REFUSED = {
    "os_system": "import os\nos.system('ls')",
    "os_path_exists": "import os.path\nos.path.exists('/')",
    "os_makedirs": "import os\nos.makedirs('x', exist_ok=True)",
    "argparse_fromfile": "import argparse\n"
                         "argparse.ArgumentParser(fromfile_prefix_chars='@').parse_args(['@x'])",
    "logging_brace_attribute": "import logging\nlogging.Formatter('{name.__class__}', style='{')",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_programs_cannot_reach_the_machine(name):
    from gradcli.language.session import Session
    outcome = Session(write=lambda text: None).run(REFUSED[name])
    assert outcome.error is not None and outcome.error.kind == "NotImplementedError", name


def test_a_program_reads_the_environment_and_keeps_what_it_sets():
    """os.environ is the process's, read; what a program sets or deletes stays its own."""
    import os
    from gradcli.language.session import Session
    written = []
    outcome = Session(write=written.append).run(
        "import os\nprint(os.environ.get('PATH') is not None)\n"
        "os.environ['GRADCLI_SECURITY_PROBE'] = '1'\ndel os.environ['PATH']\n"
        "print(os.environ.get('GRADCLI_SECURITY_PROBE'), 'PATH' in os.environ)")
    assert outcome.error is None
    assert "".join(written) == "True\n1 False\n"
    assert "GRADCLI_SECURITY_PROBE" not in os.environ and "PATH" in os.environ


def test_class_introspection_gives_language_classes_only():
    """__mro__, __bases__, __class__ and a method's __func__/__self__ are the program's own
    classes and functions, and the language's class objects (which have no dunders beyond their
    names): nothing of the host."""
    from gradcli.language.runtime import classes
    from gradcli.language.runtime.frames import UserFunction
    from gradcli.language.runtime.pytypes import PyType
    from gradcli.language.session import Session
    session = Session(write=lambda text: None)
    outcome = session.run(
        "class E(ValueError):\n    def f(self):\n        return 1\n"
        "found = [*E.__mro__, *E.__bases__, E().__class__, *E.mro(), E.__base__,"
        " E().f.__func__, type(E().f.__self__)]\n")
    assert outcome.error is None, outcome.error
    for value in session.globals.vars["found"]:
        assert isinstance(value, (classes.UserClass, PyType, UserFunction)), value
    for name in ("__dict__", "__subclasses__", "__globals__", "__code__"):
        bad = session.run(f"E.__mro__[1].{name}")
        assert bad.error is not None and bad.error.kind == "AttributeError", name
    # a base's __init__ (ValueError.__init__(self, ...)) is the language's own table entry
    assert session.run("base_init = E.__mro__[1].__init__").error is None
    assert session.globals.vars["base_init"] in classes.BASE_INITS.values()

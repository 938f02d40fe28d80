"""The module groups loaded on first import list exactly the modules their loaders give."""

import pytest

import gradcli.language.session  # noqa: F401  (the tables, as a session has them)
from gradcli.language.namespaces.torch_table import MODULE_GROUPS, MODULES


@pytest.mark.parametrize("names, load", MODULE_GROUPS, ids=[names[0] for names, _ in MODULE_GROUPS])
def test_group_names_are_its_modules(names, load):
    assert sorted(load()) == sorted(names)


def test_a_group_loads_on_first_lookup():
    assert "numpy.random" in MODULES
    assert MODULES["numpy.random"].name == "numpy.random"
    assert {"numpy", "numpy.linalg", "numpy.random"} <= set(MODULES)

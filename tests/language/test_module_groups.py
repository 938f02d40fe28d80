"""Every group of names loaded on first use is filled by its loader, and loads on first lookup."""

import pytest

import gradcli.language.session  # noqa: F401  (the tables, as a session has them)
from gradcli.language.namespaces.torch_submodules import ALL_GROUPS
from gradcli.language.namespaces.torch_table import MODULES, TORCH

IDS = [f"{load.__name__}:{names[0]}" for names, load in ALL_GROUPS]


@pytest.mark.parametrize("names, load", ALL_GROUPS, ids=IDS)
def test_a_group_names_what_its_loader_gives(names, load):
    assert set(names) <= set(load())


def test_every_module_a_loader_gives_is_importable():
    from gradcli.language.namespaces.torch_submodules import MODULE_GROUPS
    other_tables = {name for names, _ in ALL_GROUPS[len(MODULE_GROUPS):] for name in names}
    for names, load in MODULE_GROUPS:
        assert set(load()) - other_tables <= set(names), load.__name__


def test_a_group_loads_on_first_lookup():
    assert "numpy.random" in MODULES
    assert MODULES["numpy.random"].name == "numpy.random"
    assert {"numpy", "numpy.linalg", "numpy.random"} <= set(MODULES)
    assert TORCH.table["func"] is MODULES["torch.func"]

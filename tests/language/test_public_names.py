"""Every public name of torch, torch.Tensor, torch.nn, torch.nn.functional, torch.linalg,
torch.autograd and torch.func: gradcli supports it, or refuses it saying gradcli lacks it.

The names come from the installed torch when there is one (and must equal the recorded list),
otherwise from the recorded list (tests/golden/record_public_names.py writes it).
Run this file as a script to print the coverage per namespace.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

from gradcli.engine.creation import tensor  # noqa: E402
from gradcli.engine.errors import TorchError  # noqa: E402
from gradcli.language.namespaces.public_names import NAMESPACES, recorded  # noqa: E402
from gradcli.language.namespaces.tensor_table import TENSOR_ATTRS, TENSOR_METHODS  # noqa: E402
from gradcli.language.namespaces.torch_table import MODULES  # noqa: E402
from gradcli.language.runtime import attributes  # noqa: E402


def _names() -> dict[str, list[str]]:
    try:
        import torch  # noqa: F401
    except ImportError:
        return {namespace: sorted(names) for namespace, names in recorded().items()}
    from record_public_names import public_names
    return public_names()


NAMES = _names()


def status(namespace: str, name: str) -> str:
    """'supported', or the error gradcli raises for `namespace.name`."""
    if namespace == "torch.Tensor":
        if name in TENSOR_ATTRS or name in TENSOR_METHODS:
            return "supported"
        owner = tensor([1.0])
    else:
        owner = MODULES[namespace]
    try:
        attributes.get(owner, name)
    except TorchError as error:
        return f"{error.kind}: {error.message}"
    return "supported"


def test_recorded_list_is_torchs():
    assert {namespace: sorted(names) for namespace, names in recorded().items()} == NAMES


@pytest.mark.parametrize("namespace,name", [(namespace, name) for namespace in NAMESPACES
                                            for name in NAMES[namespace]])
def test_name_is_supported_or_refused_clearly(namespace, name):
    assert status(namespace, name) in (
        "supported", f"NotImplementedError: gradcli does not support {namespace}.{name} yet")


def test_hasattr_is_true_for_a_name_torch_has_and_gradcli_lacks():
    from op_runner import gradcli_outcome
    out = gradcli_outcome('import torch\nprint(hasattr(torch, "stft"), '
                          'hasattr(torch.ones(1), "stft"), hasattr(torch, "no_such_name"))\n')
    assert out == ("True True False\n", None)


def coverage() -> dict[str, tuple[int, int]]:
    """namespace -> (supported names, public names)."""
    return {namespace: (sum(status(namespace, n) == "supported" for n in NAMES[namespace]),
                        len(NAMES[namespace])) for namespace in NAMESPACES}


if __name__ == "__main__":
    for namespace, (supported, total) in coverage().items():
        print(f"{namespace:26} {supported:5} / {total:5}  ({100 * supported / total:.0f}%)")

"""torch.nn.grad (also F.grad): a convolution's gradient with respect to its input or weight,
computed as torch computes it, by convolution_backward with a placeholder of the other's size."""

from __future__ import annotations

from gradcli.language.runtime.objects import LazyTable
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import Namespace


def _tuple(value, n: int) -> tuple:
    """torch's _single/_pair/_triple: an iterable as a tuple, anything else repeated n times."""
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * n


def _gradient(n: int, of_weight: bool):
    def run(runtime, first, second, grad_output, stride=1, padding=0, dilation=1, groups=1):
        from gradcli.engine.functions import F
        from gradcli.language.namespaces.distribution_base import Calls
        c = Calls(runtime)
        given, size = (first, second) if of_weight else (second, first)
        placeholder = c.method(c.method(grad_output, "new_empty", 1), "expand", size)
        x, w = (given, placeholder) if of_weight else (placeholder, given)
        mask = (False, True, False) if of_weight else (True, False, False)
        grads = F.convolution_backward(
            grad_output, x, w, mask=mask, stride=_tuple(stride, n), padding=_tuple(padding, n),
            dilation=_tuple(dilation, n), transposed=False, output_padding=(0,) * n,
            groups=groups)
        return grads[1 if of_weight else 0]
    name = f"conv{n}d_{'weight' if of_weight else 'input'}"
    first = "input, weight_size" if of_weight else "input_size, weight"
    return entry(name, run, f"{first}, grad_output, stride=1, padding=0, dilation=1, groups=1",
                 context=True)


def _entries() -> dict:
    return table(*(_gradient(n, of_weight) for n in (1, 2, 3) for of_weight in (False, True)))


NN_GRAD = Namespace("torch.nn.grad", LazyTable({}, _entries))

"""The kernel replicas load with the first op that needs them, and then serve as if imported."""

import subprocess
import sys

import pytest

from gradcli.engine import lazy_modules

KERNEL_MODULES = ("complex_kernels", "kernels_order", "libm_float", "sleef", "sleef_dd",
                  "sleef_df", "vml")

PROBE = """
import sys
from gradcli.engine.functions import F
from gradcli.engine import creation
import gradcli.engine.ops.pointwise, gradcli.engine.ops.reductions
names = ["gradcli.engine." + name for name in {modules!r}]
print(sum(name in sys.modules for name in names))
x = creation.tensor([0.5, 1.5, 2.5])
print(F.add(F.mul(x, x), x).data.tolist(), sum(name in sys.modules for name in names))
print(F.exp(x).data.dtype, sum(name in sys.modules for name in names))
"""


def test_kernel_modules_load_with_the_first_op_that_needs_them():
    probe = PROBE.format(modules=KERNEL_MODULES)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines[0] == "0"
    assert lines[1] == "[0.75, 3.75, 8.75] 0"
    assert lines[2].endswith(f"float32 {len(KERNEL_MODULES)}")


def test_a_stand_in_reads_as_its_module():
    from gradcli.engine import sleef_df
    assert lazy_modules.sleef_df.powf is sleef_df.powf
    with pytest.raises(AttributeError, match="'gradcli.engine.sleef_df' has no attribute 'nothing'"):
        lazy_modules.sleef_df.nothing  # noqa: B018


def test_at_first_call_builds_once():
    built = []

    def build():
        built.append(1)
        return lambda x: x + 1
    call = lazy_modules.at_first_call(build)
    assert (call(1), call(2), len(built)) == (2, 3, 1)


# what a one-line gradient program never needs: nn's modules, losses and optimizers, and the
# kernel replicas (x ** 2 is a multiplication)
LOADED_ON_DEMAND = ("gradcli.language.namespaces.modules", "gradcli.engine.ops.losses",
                    "gradcli.engine.optimizers",
                    *("gradcli.engine." + name for name in KERNEL_MODULES))

START_UP_PROBE = """
import sys
from gradcli.language.session import Session
outcome = Session(write=sys.stdout.write).run(
    "x = torch.tensor(2., requires_grad=True)\\ny = x ** 2 + 1\\ny.backward()\\nprint(x.grad)")
print(outcome.error, sorted(name for name in {modules!r} if name in sys.modules))
"""


def test_a_one_line_gradient_loads_no_layers_optimizers_or_kernels():
    probe = START_UP_PROBE.format(modules=LOADED_ON_DEMAND)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["tensor(4.)", "None []"]

"""Every op-table row gives torch's grad_fn labels: forward, and the first derivatives' labels
(create_graph=True), as recorded from torch in golden/labels.json by golden/record_labels.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

from op_runner import case_param, case_params, gradcli_run, graph_keys  # noqa: E402
from record_labels import derivative_program, label  # noqa: E402

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "labels.json").read_text("utf-8"))
PARAMS = case_params()

# Rows whose labels do not match torch yet: known gaps, reported here until fixed (strict, so a
# fix shows up as an unexpected pass).
_VIEW_WRITE_GAP = ("double backward through in-place writes into views: torch reaches this row "
                   "through CopySlices/as_strided internals that gradcli's graph does not mirror")
_NORM_DOUBLE_GAP = ("norm backward rows take their own derivatives through a composite: values "
                    "match, torch's double-backward labels do not yet")
KNOWN_GAPS = {
    "native_batch_norm_backward-0": _NORM_DOUBLE_GAP,
    "native_layer_norm_backward-0": _NORM_DOUBLE_GAP,
    "glu-0": ("glu's backward is composed of engine ops: values match, torch's "
              "GluBackwardBackward0 label does not yet"),
    **{f"_prelu_kernel-{i}": ("prelu's backward is composed of engine ops: values match, "
                              "torch's PreluKernelBackwardBackward0 label does not yet")
       for i in (0, 1)},
    **{f"{kernel}_backward-0": (
        "torch runs this kernel only where backward builds no graph: its grad_fn shows only "
        f"through torch.ops.aten.{kernel}_backward, which gradcli lacks (values: "
        "tests/differential/test_activation_bits.py)") for kernel in ("silu", "mish")},
    "_index_put_impl_-0": _VIEW_WRITE_GAP,
    "as_strided_backward-0": _VIEW_WRITE_GAP,
    "as_strided_scatter-0": _VIEW_WRITE_GAP,
}


@pytest.mark.parametrize("key, case", [case_param(*p, KNOWN_GAPS) for p in PARAMS])
def test_labels_match_torch(key, case):
    assert case is not None, f"op-table row {key} has no sample program in op_case_table.py"
    case_id = next(pid for pid, k, c in PARAMS if c is case and k == key)
    expected = GOLDEN.get(case_id)
    source = case.source("float32")
    assert expected is not None and expected["source"] == source, (
        f"{case_id}: labels.json is out of date; run tests/golden/record_labels.py")
    session, _ = gradcli_run(source)
    y = session.globals.vars["y"]
    assert key in graph_keys(y), f"{case_id} does not reach the row {key}"
    assert label(y) == expected["forward"]
    if case.grad:
        session.run(derivative_program(case.names))
        grads = session.globals.vars.get("_grads")
        assert grads is not None, "computing the first derivatives failed"
        assert [label(g) for g in grads] == expected["grads"]

"""reset_parameters and reset_running_stats, for the classes torch defines them on.

A class's constructor draws its parameters by calling reset_parameters, so resetting builds a
new module from the same constructor arguments (the same draws, in the same order) and writes
its parameters into the module's own, in place. The norm layers' reset also resets their
running statistics.
"""

from __future__ import annotations

from gradcli.engine import parameters
from gradcli.engine.state import grad_mode
from gradcli.language.namespaces.modules import construct
from gradcli.language.runtime.signatures import entry, table

_STATS = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d",
          "InstanceNorm2d", "InstanceNorm3d")
_DEFINED_ON = {  # the class each one's reset_parameters is defined on
    **{name: "_NormBase" for name in _STATS},
    **{f"Conv{t}{d}d": "_ConvNd" for t in ("", "Transpose") for d in (1, 2, 3)},
    **{name: "RNNBase" for name in ("RNN", "LSTM", "GRU")},
    **{name: "RNNCellBase" for name in ("RNNCell", "LSTMCell", "GRUCell")},
    **{name: name for name in ("Bilinear", "Embedding", "EmbeddingBag", "GroupNorm",
                               "LayerNorm", "Linear", "PReLU", "RMSNorm")},
}


def reset_running_stats(module) -> None:
    """_NormBase.reset_running_stats: running_mean zeros, running_var ones, no batches seen."""
    for name, value in (("running_mean", 0), ("running_var", 1), ("num_batches_tracked", 0)):
        buffer = module.buffers.get(name)
        if buffer is not None:
            parameters.write(buffer, value)


def reset_parameters(module) -> None:
    """reset_parameters: the parameters drawn again as the constructor drew them."""
    if module.kind.name in _STATS:
        reset_running_stats(module)
    if module.options is None:
        return
    values, keywords = module.options
    names = module.kind.option_names
    values = tuple(None if i < len(names) and names[i] == "_weight" else v  # drawn, not given
                   for i, v in enumerate(values))
    keywords = {name: v for name, v in keywords.items() if name != "_weight"}
    fresh = construct(module.kind, *values, **keywords)
    with grad_mode(False):
        for name, param in module.params.items():
            drawn = fresh.params.get(name)
            if param is not None and drawn is not None and param.shape == drawn.shape:
                parameters.write(param, drawn.data)


RESET_METHODS = {
    name: table(entry("reset_parameters", reset_parameters, "self",
                      qualname=f"{base}.reset_parameters"),
                *[entry("reset_running_stats", reset_running_stats, "self",
                        qualname="_NormBase.reset_running_stats")] * (name in _STATS))
    for name, base in _DEFINED_ON.items()}

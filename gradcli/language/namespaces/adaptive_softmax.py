"""nn.AdaptiveLogSoftmaxWithLoss as torch's Python code builds and runs it
(torch/nn/modules/adaptive.py): a head Linear over the shortlist and one entry per cluster, a
tail of two bias-free Linears per cluster, a forward that returns _ASMoutput(output, loss), and
log_prob and predict."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.engine.declarations import call
from gradcli.engine.functions import F
from gradcli.engine.indexing import get_item, set_item
from gradcli.engine.tensor import Tensor
from gradcli.language.namespaces.modules import Module
from gradcli.language.namespaces.python_namedtuple import namedtuple
from gradcli.language.runtime.signatures import entry, table
from gradcli.language.runtime.values import iterate

_ASM_OUTPUT = None


def _asm_output(output, loss):
    """adaptive.py's namedtuple _ASMoutput, made once."""
    global _ASM_OUTPUT
    if _ASM_OUTPUT is None:
        _ASM_OUTPUT = namedtuple("_ASMoutput", ["output", "loss"])
    return _ASM_OUTPUT.hosts[0]((output, loss))


def build(module: Module, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
          device=None, dtype=None, *, make) -> None:
    """AdaptiveLogSoftmaxWithLoss.__init__: its checks of the cutoffs, then the head and the
    tail's projections in torch's order (so their weights are drawn as torch draws them)."""
    cutoffs = list(iterate(cutoffs))
    if len(cutoffs) == 0:
        raise errors.value_error("cutoffs should be a sequence of length larger than 0")
    if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
        raise errors.value_error("cutoffs should be a sequence of unique, positive integers "
                                 "sorted in an increasing order, where each value is between 1 "
                                 "and n_classes-1")
    cutoffs = cutoffs + [n_classes]
    shortlist, clusters = cutoffs[0], len(cutoffs) - 1
    module.attrs.update(in_features=in_features, n_classes=n_classes, cutoffs=cutoffs,
                        div_value=div_value, head_bias=head_bias, shortlist_size=shortlist,
                        n_clusters=clusters, head_size=shortlist + clusters)
    module.set_attribute("head", make("Linear", in_features, shortlist + clusters, head_bias,
                                      device, dtype))
    projections = []
    for i in range(clusters):
        hidden = int(in_features // (div_value ** (i + 1)))
        projections.append(make("Sequential",
                                make("Linear", in_features, hidden, False, device, dtype),
                                make("Linear", hidden, cutoffs[i + 1] - cutoffs[i], False,
                                     device, dtype)))
    module.set_attribute("tail", make("ModuleList", projections))


def _head(ctx, module: Module, x):
    return ctx.call(module.attribute("head"), [x], {})


def _cluster(ctx, module: Module, i: int, x):
    return ctx.call(module.attribute("tail").children[str(i)], [x], {})


def _size(t: Tensor) -> str:
    return "torch.Size([" + ", ".join(str(n) for n in t.shape) + "])"


def forward(ctx, module: Module, input_, target_):
    """AdaptiveLogSoftmaxWithLoss.forward: each cluster's rows' log-probabilities within it,
    plus the head's log-probability of the shortlist entry or of the cluster."""
    a = module.attrs
    targ_dim = target_.ndim
    if targ_dim == 1:
        if input_.shape[0] != target_.shape[0]:
            raise errors.runtime("Input and target should have the same size in the batch "
                                 "dimension.")
        if input_.ndim != 2:
            raise errors.runtime("1D target tensor expects 2D input tensors, but found inputs "
                                 f"with size {_size(input_)}")
    elif targ_dim == 0:
        if input_.ndim != 1:
            raise errors.runtime("0D target tensor expects 1D input tensors, but found inputs "
                                 f"with size {_size(input_)}")
    else:
        raise errors.runtime("0D or 1D target tensor expected, multi-target not supported")
    batched = targ_dim > 0
    x = input_ if batched else F.unsqueeze(input_, 0)
    target = target_ if batched else F.unsqueeze(target_, 0)
    used_rows, batch = 0, target.shape[0]
    output = F.zeros((batch,), dtype=x.dtype)
    gather_inds = F.zeros((batch,), dtype=target.dtype)
    bounds = [0] + a["cutoffs"]
    for i in range(len(bounds) - 1):
        low, high = bounds[i], bounds[i + 1]
        mask = F.bitwise_and(F.ge(target, low), F.lt(target, high))
        rows = F.squeeze(F.nonzero(mask))
        if rows.numel() == 0:
            continue
        if i == 0:
            call("method", "index_copy_", gather_inds, 0, rows, get_item(target, mask))
        else:
            relative = F.sub(get_item(target, mask), low)
            cluster_output = _cluster(ctx, module, i - 1, F.index_select(x, 0, rows))
            call("method", "index_fill_", gather_inds, 0, rows, a["shortlist_size"] + i - 1)
            logprob = F.log_softmax(cluster_output, 1)
            local = F.gather(logprob, 1, F.unsqueeze(relative, 1))
            call("method", "index_copy_", output, 0, rows, F.squeeze(local, 1))
        used_rows += rows.numel()
    if used_rows != batch:
        low, high = F.min(target).data.item(), F.max(target).data.item()
        raise errors.runtime(f"Target values should be in [0, {a['n_classes'] - 1}], but values "
                             f"in range [{low}, {high}] were found. ")
    head_logprob = F.log_softmax(_head(ctx, module, x), 1)
    output = call("method", "add_", output,
                  F.squeeze(F.gather(head_logprob, 1, F.unsqueeze(gather_inds, 1))))
    loss = F.mean(F.neg(output))
    if not batched:
        output = F.squeeze(output, 0)
    return _asm_output(output, loss)


def _full_log_prob(ctx, module: Module, x, head_output):
    """_get_full_log_prob: the shortlist's log-probabilities, then each cluster's plus its
    head entry, written into a new tensor."""
    a = module.attrs
    shortlist, cutoffs = a["shortlist_size"], a["cutoffs"]
    out = F.zeros((head_output.shape[0], a["n_classes"]), dtype=x.dtype)
    head_logprob = F.log_softmax(head_output, 1)
    every = slice(None)
    set_item(out, (every, slice(None, shortlist)), get_item(head_logprob,
                                                            (every, slice(None, shortlist))))
    for i, (start, stop) in enumerate(zip(cutoffs, cutoffs[1:])):
        logprob = F.log_softmax(_cluster(ctx, module, i, x), 1)
        entry_ = F.unsqueeze(get_item(head_logprob, (every, shortlist + i)), 1)
        set_item(out, (every, slice(start, stop)), F.add(logprob, entry_))
    return out


def log_prob(ctx, module: Module, input):
    return _full_log_prob(ctx, module, input, _head(ctx, module, input))


def predict(ctx, module: Module, input):
    """The most likely class of each row: the head's when in the shortlist, else the full
    distribution's."""
    head_output = _head(ctx, module, input)
    output = F.argmax(head_output, 1)
    outside = F.ge(output, module.attrs["shortlist_size"])
    if not bool(F.any(outside).data):
        return output
    if bool(F.all(outside).data):
        return F.argmax(_full_log_prob(ctx, module, input, head_output), 1)
    log_probs = _full_log_prob(ctx, module, get_item(input, outside),
                               get_item(head_output, outside))
    set_item(output, outside, F.argmax(log_probs, 1))
    return output


def reset_parameters(ctx, module: Module) -> None:
    """The head's parameters drawn again, then each projection's, in order."""
    ctx.call(module.attribute("head").attribute("reset_parameters"), [], {})
    for projection in module.attribute("tail").children.values():
        for linear in projection.children.values():
            ctx.call(linear.attribute("reset_parameters"), [], {})


class AdaptiveHost(Module):
    """nn.AdaptiveLogSoftmaxWithLoss's values: nn.Module's methods, log_prob, predict and
    reset_parameters."""

    __slots__ = ()
    METHODS = table(entry("log_prob", log_prob, "self, input", context=True),
                    entry("predict", predict, "self, input", context=True),
                    entry("reset_parameters", reset_parameters, "self", context=True))

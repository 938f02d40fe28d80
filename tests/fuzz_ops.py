"""The operations the differential fuzzer composes: each picks operands (and sometimes new
leaves) for a ProgramBuilder and returns an expression, or None when its operands do not suit it
(values near a kink, a pole or out of the op's well-conditioned range)."""

from __future__ import annotations

SCALARS = (2, 3, 0.5, 1.5, -2, 0.25, 10)


def _far(values, points, tol=1e-3) -> bool:
    """Every value is at least `tol` (relative) away from every kink point."""
    return all(float((values - p).abs().min()) > tol * (1 + abs(p)) for p in points)


def _range(values) -> tuple:
    return float(values.min()), float(values.max())


def unary(b):
    name = b.operand()
    x = b.value(name)
    low, high = _range(x)
    smallest = float(x.abs().min())
    choices = {
        "-{x}": True, "{x}.exp()": high < 6, "torch.exp2({x})": high < 8,
        "torch.expm1({x})": high < 6, "{x}.log()": low > 0.05, "torch.log2({x})": low > 0.05,
        "{x}.log10()": low > 0.05, "{x}.log1p()": low > -0.9, "{x}.sqrt()": low > 0.05,
        "torch.rsqrt({x})": low > 0.05, "{x}.sin()": smallest < 10 and high < 10,
        "torch.cos({x})": high < 10 and low > -10, "{x}.tan()": max(-low, high) < 1.2,
        "{x}.asin()": max(-low, high) < 0.95, "torch.acos({x})": max(-low, high) < 0.95,
        "{x}.atan()": True, "{x}.sinh()": max(-low, high) < 5, "torch.cosh({x})":
            max(-low, high) < 5, "{x}.tanh()": True, "torch.sigmoid({x})": True,
        "torch.erf({x})": True, "{x}.reciprocal()": smallest > 0.1,
        "{x}.abs()": _far(x, [0]), "abs({x})": _far(x, [0]), "torch.square({x})": True,
        "torch.relu({x})": _far(x, [0]), "F.relu({x})": _far(x, [0]),
        "F.leaky_relu({x}, 0.2)": _far(x, [0]), "F.elu({x})": _far(x, [0]),
        # below -3, 1 + erf (or 1 + tanh) cancels: float32 keeps no digits to compare there
        "F.gelu({x})": low > -3, "F.gelu({x}, approximate='tanh')": low > -3,
        "F.silu({x})": True,
        "F.softplus({x})": True, "F.softplus({x}, beta=2.0)": True,
        "{x}.sign() * {x}": _far(x, [0]), "{x}.floor()": _far(x, range(-20, 21)),
        "torch.ceil({x})": _far(x, range(-20, 21)), "{x}.trunc()": _far(x, range(-20, 21)),
        "{x}.frac()": _far(x, range(-20, 21)),
        "torch.round({x})": _far(x, [k + 0.5 for k in range(-20, 20)]),
        "{x}.double()": True, "{x}.float()": True, "{x}.to(torch.float64)": True,
        "F.sigmoid({x})": True, "F.tanh({x})": True,
    }
    return b.choose([t for t, ok in choices.items() if ok]).format(x=name)


def power(b):
    name = b.operand()
    x = b.value(name)
    low, high = _range(x)
    smallest = float(x.abs().min())
    options = ["{x} ** 2", "{x} ** 3", "{x}.pow(2)", "{x} ** 0", "{x} ** 1"]
    if smallest > 0.1:
        options += ["{x} ** -1", "{x} ** -2"]
    if low > 0.1:
        options += ["{x} ** 0.5", "{x} ** -0.5", "{x} ** 1.5", "{x} ** 2.5", "torch.pow({x}, 0.3)"]
    if max(-low, high) < 6:
        options += ["2 ** {x}", "0.5 ** {x}", "torch.pow(1.5, {x})"]
    return b.choose(options).format(x=name)


def binary(b):
    x_name = b.operand()
    y_name = b.partner(x_name)
    x, y = b.value(x_name), b.value(y_name)
    sums = (x + y).abs(), (x - y).abs()
    scale = (x.abs() + y.abs()).clamp(min=1e-12)
    options = ["{x} * {y}", "torch.mul({x}, {y})"]
    if float((sums[0] / scale).min()) > 1e-2:
        options += ["{x} + {y}", "torch.add({x}, {y}, alpha=2)" if
                    float(((x + 2 * y).abs() / (x.abs() + 2 * y.abs())).min()) > 1e-2 else
                    "{x} + {y}"]
    if float((sums[1] / scale).min()) > 1e-2:
        options += ["{x} - {y}", "torch.sub({x}, {y})", "torch.rsub({y}, {x})"]
        if float(sums[1].min()) > 1e-3:
            options += ["torch.maximum({x}, {y})", "torch.minimum({x}, {y})",
                        "torch.max({x}, {y})", "F.l1_loss({x}, {y})"]
    if float(y.abs().min()) > 0.1:
        options += ["{x} / {y}", "torch.div({x}, {y})"]
        quotient = x / y
        if _far(quotient, range(-30, 31), 1e-2) and float(quotient.abs().max()) < 30:
            options += ["{x} % {y}", "torch.remainder({x}, {y})"]
    if float(x.min()) > 0.1 and float(y.abs().max()) < 4:
        options += ["{x} ** {y}"]
    options += ["torch.atan2({x}, {y})"] if float(scale.min()) > 0.1 else []
    options += ["torch.lerp({x}, {y}, 0.3)", "F.mse_loss({x}, {y})",
                "F.mse_loss({x}, {y}, reduction='sum')", "F.smooth_l1_loss({x}, {y})"
                if _far(x - y, [-1, 1]) else "F.mse_loss({x}, {y}, reduction='none')"]
    return b.choose(options).format(x=x_name, y=y_name)


def with_scalar(b):
    name = b.operand()
    x = b.value(name)
    s = b.choose(SCALARS)
    options = [f"{{x}} * {s}", f"{s} * {{x}}", f"{{x}} / {s}"]
    if float(((x + s).abs() / (x.abs() + abs(s))).min()) > 1e-2:
        options += [f"{{x}} + {s}", f"{s} + {{x}}"]
    if float(((x - s).abs() / (x.abs() + abs(s))).min()) > 1e-2:
        options += [f"{{x}} - {s}", f"{s} - {{x}}"]
    if float(x.abs().min()) > 0.1:
        options += [f"{s} / {{x}}"]
    if _far(x, [-0.5, 0.5]):
        options += ["{x}.clamp(-0.5, 0.5)", "torch.clamp({x}, min=-0.5)", "{x}.clip(max=0.5)",
                    "torch.where({x} > 0.5, {x}, 0.)"]
    return b.choose(options).format(x=name)


def reduction(b):
    name = b.operand()
    x = b.value(name)
    dim = b.dim(x.dim())
    keep = b.choose((False, True))
    options = ["{x}.sum()", "{x}.mean()", "torch.sum({x})", "{x}.norm()",
               f"{{x}}.sum({dim}, keepdim={keep})", f"{{x}}.mean({dim}, keepdim={keep})",
               f"torch.logsumexp({{x}}, {dim})", f"{{x}}.softmax({dim})",
               f"F.log_softmax({{x}}, dim={dim})", f"{{x}}.cumsum({dim})"]
    if x.dim():
        options += [f"{{x}}.sum(({dim}, {-1}))" if x.dim() > 1 and dim != -1 else "{x}.sum(-1)"]
    if 0.1 < float(x.abs().min()) and float(x.abs().max()) < 5 and x.numel() <= 8:
        options += ["{x}.prod()", f"{{x}}.prod({dim})", f"{{x}}.cumprod({dim})"]
    if _distinct(x):
        options += ["{x}.max()", "torch.min({x})", "{x}.amax()", f"{{x}}.amin({dim})",
                    f"{{x}}.max({dim})[0]", f"torch.min({{x}}, {dim}, keepdim={keep})[0]",
                    "torch.linalg.vector_norm({x}, float('inf'))"]
    if float(x.abs().min()) > 1e-3:
        options += ["{x}.norm(p=1)", "torch.linalg.vector_norm({x}, ord=3)"]
    if x.numel() >= 3 and float(x.std()) > 0.05 * float(x.abs().mean()):
        options += ["{x}.var()", "{x}.std()", "torch.var({x}, unbiased=False)"]
        if x.dim() and x.shape[dim] >= 2:
            line = x.transpose(0, dim) if x.dim() > 1 else x
            if float(line.std(0).min()) > 0.05 * float(x.abs().mean()):
                options += [f"{{x}}.var({dim})", f"{{x}}.std({dim}, correction=0)"]
    return b.choose(options).format(x=name)


def _distinct(x) -> bool:
    flat = x.detach().reshape(-1).sort().values
    return flat.numel() < 2 or float((flat[1:] - flat[:-1]).min()) > 1e-3


def linear_algebra(b):
    name = b.operand()
    x = b.value(name)
    shape = tuple(x.shape)
    if len(shape) == 1:
        n = shape[0]
        options = [("{x} @ {w}", (n,)), ("torch.dot({x}, {w})", (n,)), ("{x} @ {w}", (n, 2)),
                   ("torch.outer({x}, {w})", (2,)), ("F.linear({x}, {w})", (2, n)),
                   ("torch.einsum('i,i->', {x}, {w})", (n,)), ("{x}.matmul({w})", (2, n, 3))]
    elif len(shape) == 2:
        n, m = shape
        options = [("{x} @ {w}", (m,)), ("{x} @ {w}", (m, 2)), ("torch.mm({x}, {w})", (m, 3)),
                   ("torch.mv({x}, {w})", (m,)), ("{x}.t() @ {w}", (n, 2)),
                   ("F.linear({x}, {w})", (2, m)), ("torch.einsum('ij,jk->ik', {x}, {w})", (m, 2)),
                   ("torch.einsum('ij,kj->ik', {x}, {w})", (3, m)), ("{x} @ {w}", (2, m, 2))]
        if n == m:
            options += [("torch.trace({x}) * {w}", ()), ("torch.diag({x}) * {w}", (n,))]
    elif len(shape) == 3:
        options = [("{x} @ {w}", (shape[2], 2)), ("torch.bmm({x}, {w})", (shape[0], shape[2], 2)),
                   ("{x} @ {w}", (shape[2],)),
                   ("torch.einsum('bij,bjk->bik', {x}, {w})", (shape[0], shape[2], 2))]
    else:
        return None
    template, w_shape = b.choose(options)
    return template.format(x=name, w=b.leaf(w_shape))


def loss(b):
    name = b.operand()
    x = b.value(name)
    if x.dim() == 2:
        n, c = x.shape
        labels = b.int_leaf((n,), c)
        probs = b.leaf((n, c), "unit", requires_grad=False)
        options = [f"F.cross_entropy({{x}}, {labels})",
                   f"F.cross_entropy({{x}}, {labels}, reduction='none')",
                   f"F.nll_loss(F.log_softmax({{x}}, 1), {labels})",
                   f"F.cross_entropy({{x}}, {probs}.softmax(1))",
                   f"F.cross_entropy({{x}}, {labels}, label_smoothing=0.1, reduction='sum')"]
    else:
        probs = b.leaf(tuple(x.shape), "unit", requires_grad=False)
        options = [f"F.binary_cross_entropy_with_logits({{x}}, {probs})",
                   f"F.binary_cross_entropy(torch.sigmoid({{x}}), {probs})",
                   f"F.binary_cross_entropy_with_logits({{x}}, {probs}, reduction='sum')"]
    return b.choose(options).format(x=name)


def constant(b):
    name = b.operand()
    x = b.value(name)
    shape = tuple(x.shape)
    options = ["{x} * torch.ones_like({x})", "{x} + torch.full_like({x}, 0.75)",
               "{x} * torch.zeros_like({x}) + 1.5"]
    if shape:
        n = shape[-1]
        options += [f"{{x}} * torch.arange(1., {n + 1}.)", f"{{x}} + torch.linspace(0.5, 1.5, {n})",
                    f"{{x}} * torch.arange({n}, dtype=torch.float64) + 1"]
    return b.choose(options).format(x=name)


def shape_change(b):
    name = b.operand()
    x = b.value(name)
    options = ["{x}.unsqueeze(0)", "{x}.reshape(-1)", "{x}.flatten()"]
    if x.dim() == 2:
        options += ["{x}.t()", "{x}.T", "{x}[0]", "{x}[:, 1:]", "{x}.transpose(0, 1)"]
    if x.dim() >= 1 and x.shape[0] > 1:
        options += ["{x}[1:]", "{x}[0]", "torch.cat([{x}, {x}])", "torch.stack([{x}, {x}])"]
    return b.choose(options).format(x=name)


def comparison(b):
    """A statement with a bool or plain result, printed but not used as an operand."""
    name = b.operand()
    x = b.value(name)
    options = ["({x} > 0.5)", "torch.isnan({x})", "({x} > 0).any()", "({x} <= 1).all()",
               "torch.allclose({x}, {x} * 1)", "torch.equal({x}, {x})", "{x}.argmax()",
               "torch.logical_and({x} > 0, {x} < 1)", "{x}.eq({x})", "torch.isinf({x})",
               "{x}.detach().long()", "({x} != 0.5).sum()", "torch.where({x} > 0, 1, 0)"]
    if x.dim():
        options += [f"{{x}}.argmin({b.dim(x.dim())})"]
    return b.choose(options).format(x=name)


def integers(b):
    """Mixing an int64 tensor (or int results) with floating tensors: type promotion."""
    name = b.operand()
    shape = tuple(b.value(name).shape)
    ints = b.int_leaf(shape[-1:], 4)
    options = ["{x} * {i}", "{x} + {i}", "{i} * {x}", "({i} + 1) / 2 * {x}", "{i}.float() * {x}",
               "{x} - {i} * 0.5", "{x} * ({i} > 1)", "{x} * {i}.double()", "({i} * 2.5) + {x}",
               "torch.where({i} > 1, {x}, {i} * 1.)"]
    return b.choose(options).format(x=name, i=ints)


OPERATIONS = (integers, unary, unary, power, binary, binary, with_scalar, reduction, reduction,
              linear_algebra, loss, constant, shape_change, comparison)

ERRORS = (
    "{x} + torch.ones(5, 7)",
    "{x} @ torch.ones(5, 7)",
    "torch.ones(2, 3) @ torch.ones(2, 3)",
    "torch.mm({x}, torch.ones(4))",
    "{x}.sum(dim=5)",
    "torch.tensor([1, 2]).mean()",
    "torch.tensor([1, 2], requires_grad=True)",
    "{x}.softmax(7)",
    "torch.dot(torch.ones(3), torch.ones(4))",
    "F.mse_loss({x}, torch.ones(5, 7))",
    "{x}.unknown_method()",
    "torch.div({x}, 2, rounding_mode='nearest')",
    "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5]))",
    "torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(4, 2))",
    "torch.clamp({x})",
)


def finite_and_bounded(value, limit: float = 1e4) -> bool:
    return bool(value.isfinite().all()) and float(value.abs().max()) < limit if value.numel() \
        else True


def well_conditioned(value, reference, rtol: float, atol: float = 1e-6) -> bool:
    """`value` (computed in its dtype) agrees elementwise with `reference` (the same program in
    float64) to `rtol`: no cancellation amplified rounding beyond what the comparison allows."""
    if value.shape != reference.shape:
        return False
    difference = (value.detach().double() - reference.detach().double()).abs()
    return bool((difference <= rtol * reference.detach().double().abs() + atol).all())


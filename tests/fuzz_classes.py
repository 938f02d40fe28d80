"""Class-based wrappers for fuzzed expressions: the same expression computed inside a custom
autograd.Function (whose backward differentiates it again under enable_grad) or inside an
nn.Module subclass with its own parameters, as tutorials write them."""

from __future__ import annotations

import re

OPERAND = re.compile(r"\b[xht]\d+\b")


def operands(expr: str) -> list[str]:
    """The program's tensors the expression reads, in order of first use."""
    return list(dict.fromkeys(OPERAND.findall(expr)))


def _body(expr: str, names: list[str], params: list[str]) -> str:
    return OPERAND.sub(lambda m: params[names.index(m.group())], expr)


def custom_function(cls: str, expr: str) -> tuple[list[str], str]:
    """(the class's lines, the call replacing `expr`)."""
    names = operands(expr)
    params = [f"a{i}" for i in range(len(names))]
    args, body = ", ".join(params), _body(expr, names, params)
    lines = [
        f"class {cls}(torch.autograd.Function):",
        "    @staticmethod",
        f"    def forward(ctx, {args}):",
        f"        ctx.save_for_backward({args})",
        f"        return {body}",
        "",
        "    @staticmethod",
        "    def backward(ctx, grad):",
        f"        {args}, = ctx.saved_tensors",
        "        with torch.enable_grad():",
        f"            {args}, = [a.detach().requires_grad_(need) for a, need in "
        f"zip(({args},), ctx.needs_input_grad)]",
        f"            out = {body}",
        f"            wanted = [a for a in ({args},) if a.requires_grad]",
        "            found = iter(torch.autograd.grad(out, wanted, grad, allow_unused=True))",
        "        return tuple(next(found) if need else None for need in ctx.needs_input_grad)",
    ]
    return lines, f"{cls}.apply({', '.join(names)})"


def module(cls: str, instance: str, expr: str, last_dim: int | None, scale: float
           ) -> tuple[list[str], str, list[str]]:
    """(the class's and instance's lines, the call replacing `expr`, its parameters' names).
    With `last_dim`, the module also applies a seeded nn.Linear(last_dim, 2)."""
    names = operands(expr)
    params = [f"a{i}" for i in range(len(names))]
    body = _body(expr, names, params)
    lines = [
        f"class {cls}(torch.nn.Module):",
        "    def __init__(self, scale):",
        "        super().__init__()",
        "        self.scale = torch.nn.Parameter(torch.tensor(scale))",
    ]
    parameters = [f"{instance}.scale"]
    if last_dim is not None:
        lines += ["        torch.manual_seed(0)", f"        self.lin = torch.nn.Linear({last_dim}, 2)"]
        parameters += [f"{instance}.lin.weight", f"{instance}.lin.bias"]
        body = f"self.lin(({body}).float())"
    lines += [
        "",
        f"    def forward(self, {', '.join(params)}):",
        f"        return {body} * self.scale",
        "",
        f"{instance} = {cls}({scale!r})",
        f"print({instance})",
    ]
    return lines, f"{instance}({', '.join(names)})", parameters

"""Pytrees as torch.utils._pytree sees them: nests of tuples, lists and dicts, as leaves and a spec."""

from __future__ import annotations

from collections import OrderedDict

_KINDS = {tuple: "tuple", list: "list", dict: "dict", OrderedDict: "OrderedDict"}
_MAPPINGS = {"dict": dict, "OrderedDict": OrderedDict}


class Spec:
    """A pytree's structure: a leaf (kind None) or a container's kind, keys and child specs."""

    __slots__ = ("kind", "keys", "children", "num_leaves")

    def __init__(self, kind: str | None, keys: list | None, children: list) -> None:
        self.kind, self.keys, self.children = kind, keys, children
        self.num_leaves = 1 if kind is None else sum(c.num_leaves for c in children)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Spec) and self.kind == other.kind and self.keys == other.keys
                and self.children == other.children)

    def text(self, indent: int = 0) -> str:
        """torch's TreeSpec repr."""
        if self.kind is None:
            return "*"
        keys = "None" if self.keys is None else repr(self.keys)
        indent += 2
        children = (",\n" + " " * indent).join(c.text(indent) for c in self.children)
        return f"TreeSpec({self.kind}, {keys}, [{children}])"

    def pprint(self) -> str:
        """torch's treespec_pprint: the pytree's repr with `*` for each leaf."""
        if self.kind is None:
            return "*"
        parts = [c.pprint() for c in self.children]
        if self.kind in _MAPPINGS:
            body = ", ".join(f"{k!r}: {v}" for k, v in zip(self.keys, parts))
            return f"{{{body}}}" if self.kind == "dict" else f"OrderedDict({{{body}}})"
        if self.kind == "list":
            return f"[{', '.join(parts)}]"
        return f"({parts[0]},)" if len(parts) == 1 else f"({', '.join(parts)})"


def _children(value) -> tuple[str | None, list | None, list]:
    kind = _KINDS.get(type(value))
    if kind in _MAPPINGS:
        return kind, list(value), list(value.values())
    return kind, None, list(value) if kind else []


def flatten(value) -> tuple[list, Spec]:
    leaves: list = []
    return leaves, _flatten_into(value, leaves)


def _flatten_into(value, leaves: list) -> Spec:
    kind, keys, children = _children(value)
    if kind is None:
        leaves.append(value)
        return Spec(None, None, [])
    return Spec(kind, keys, [_flatten_into(c, leaves) for c in children])


def unflatten(leaves, spec: Spec):
    """The pytree of `spec` with the given leaves (any iterable, consumed in order)."""
    return _build(iter(leaves), spec)


def _build(leaves, spec: Spec):
    if spec.kind is None:
        return next(leaves)
    values = [_build(leaves, c) for c in spec.children]
    if spec.kind in _MAPPINGS:
        return _MAPPINGS[spec.kind](zip(spec.keys, values))
    return tuple(values) if spec.kind == "tuple" else values


def broadcast(prefix, spec: Spec) -> list | None:
    """The leaves of `prefix` repeated over the subtrees of `spec` they stand for (vmap's in_dims
    and out_dims), or None when `prefix` is not a prefix of `spec`."""
    found: list = []
    return found if _broadcast_into(prefix, spec, found) else None


def _broadcast_into(prefix, spec: Spec, found: list) -> bool:
    kind, keys, children = _children(prefix)
    if kind is None:
        found.extend([prefix] * spec.num_leaves)
        return True
    if kind != spec.kind or len(children) != len(spec.children):
        return False
    if kind in _MAPPINGS:
        if set(keys) != set(spec.keys):
            return False
        children = [prefix[k] for k in spec.keys]
    return all(_broadcast_into(p, s, found) for p, s in zip(children, spec.children))

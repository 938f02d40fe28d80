"""F.triplet_margin_with_distance_loss and nn.TripletMarginWithDistanceLoss, which call a
distance function the program may give (torch's Python code, step by step)."""

from __future__ import annotations

from gradcli.engine import declarations, errors
from gradcli.language.runtime import attributes, operators
from gradcli.language.runtime.coercions import truth


def _positive_margin(margin) -> bool:
    return not truth(operators.compare("<=", margin, 0))


def triplet_margin_with_distance_loss(ctx, anchor, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    if reduction not in ("mean", "sum", "none"):
        raise errors.value_error(f"{reduction} is not a valid value for reduction")
    if not _positive_margin(margin):
        raise errors.value_error(f"margin must be greater than 0, got {margin}")
    dims = [attributes.get(t, "ndim") for t in (anchor, positive, negative)]
    if not dims[0] == dims[1] == dims[2]:
        raise errors.runtime(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs")

    def distance(x1, x2):
        if distance_function is None:
            return declarations.call("torch", "pairwise_distance", x1, x2)
        return ctx.call(distance_function, [x1, x2], {})
    dist_pos, dist_neg = distance(anchor, positive), distance(anchor, negative)
    if truth(swap):
        dist_neg = declarations.call("torch", "minimum", dist_neg, distance(positive, negative))
    loss = declarations.call("torch", "clamp_min", operators.binary(
        "-", operators.binary("+", margin, dist_pos), dist_neg), 0)
    if reduction == "none":
        return loss
    return declarations.call("torch", reduction, loss)


def build(pairwise_distance):
    """TripletMarginWithDistanceLoss.__init__, a PairwiseDistance() module when no distance
    function is given (`pairwise_distance()` makes one)."""
    def build_module(module, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        module.attrs["reduction"] = reduction
        if not _positive_margin(margin):
            raise errors.value_error("TripletMarginWithDistanceLoss: expected margin to be "
                                     f"greater than 0, got {margin} instead")
        module.set_attribute("distance_function", distance_function
                             if distance_function is not None else pairwise_distance())
        module.attrs.update(margin=margin, swap=swap)
    return build_module


def forward(ctx, module, anchor, positive, negative):
    return triplet_margin_with_distance_loss(
        ctx, anchor, positive, negative, module.attribute("distance_function"),
        module.attrs["margin"], module.attrs["swap"], module.attrs["reduction"])

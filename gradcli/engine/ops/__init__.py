"""The areas of torch functions and their op rows, each loaded on first use of one of its names.

Importing an area registers its rows in OPS, its functions in F and its public names in
DECLARATIONS. A name missing from one of those asks `_load` here, which imports the area that
area_index.py (generated from the areas, checked by tests/engine/test_area_index.py) gives for
it; a name the index does not know loads every area, so a stale index is slower, never wrong.
"""

from __future__ import annotations

from gradcli.engine import functions

# In load order: an area's names belong to the first area whose import defines them.
AREAS = tuple(f"gradcli.engine.{name}" for name in (
    "ops.registry", "views", "ops.common", "ops.pointwise", "ops.shapes", "ops.sorting",
    "creation", "indexing", "ops.activation", "ops.arrange", "ops.attention", "ops.bilinear",
    "ops.comparison", "ops.complex_numbers", "ops.convolution", "ops.ctc_loss",
    "ops.decompositions", "ops.dual", "ops.embedding_bag", "ops.fake_quantize", "ops.gating",
    "ops.gradient",
    "ops.grid_sample", "ops.group_norm", "ops.histograms", "ops.index_reduce", "ops.inplace",
    "ops.interpolate", "ops.linalg", "ops.local_response_norm", "ops.losses", "ops.lu", "ops.ldl", "ops.householder",
    "ops.multi_margin", "ops.nn_functional", "ops.nn_extra", "ops.packing", "ops.padding",
    "ops.pool_indices", "ops.fractional_pool", "ops.pool3d", "ops.patches", "ops.pointwise_more",
    "ops.products", "ops.reductions", "ops.reductions_more", "ops.rms_norm", "ops.sampled_activations",
    "ops.scatters", "ops.selection", "ops.sparse_coo", "ops.special", "ops.spectral", "ops.special_more",
    "ops.statistics", "ops.strided_factories", "ops.triangular_solve", "ops.weight_norm",
    "binomial", "conversions", "devices", "distributions", "einsum", "ops.aten_aliases"))
# In the index: a declaration made by inplace.declare_written_back from the declared NAME.
WRITTEN_BACK = "written back"

_everything_loaded = False


def load_all() -> None:
    """Import every area, then declare the in-place variants written back from the others."""
    global _everything_loaded
    if _everything_loaded:
        return
    for area in AREAS:
        _import(area)
    from gradcli.engine.ops import inplace
    inplace.declare_written_back()
    _everything_loaded = True


def _import(area: str) -> None:
    """Import one area of AREAS (by static imports: no computed name reaches the import system)."""
    match area:
        case "gradcli.engine.devices":
            from gradcli.engine import devices  # noqa: F401
        case "gradcli.engine.distributions":
            from gradcli.engine import distributions  # noqa: F401
        case "gradcli.engine.ops.registry":
            from gradcli.engine.ops import registry  # noqa: F401
        case "gradcli.engine.views":
            from gradcli.engine import views  # noqa: F401
        case "gradcli.engine.ops.common":
            from gradcli.engine.ops import common  # noqa: F401
        case "gradcli.engine.ops.activation":
            from gradcli.engine.ops import activation  # noqa: F401
        case "gradcli.engine.ops.arrange":
            from gradcli.engine.ops import arrange  # noqa: F401
        case "gradcli.engine.ops.aten_aliases":
            from gradcli.engine.ops import aten_aliases  # noqa: F401
        case "gradcli.engine.ops.attention":
            from gradcli.engine.ops import attention  # noqa: F401
        case "gradcli.engine.ops.spectral":
            from gradcli.engine.ops import spectral  # noqa: F401
        case "gradcli.engine.ops.bilinear":
            from gradcli.engine.ops import bilinear  # noqa: F401
        case "gradcli.engine.ops.comparison":
            from gradcli.engine.ops import comparison  # noqa: F401
        case "gradcli.engine.ops.complex_numbers":
            from gradcli.engine.ops import complex_numbers  # noqa: F401
        case "gradcli.engine.ops.convolution":
            from gradcli.engine.ops import convolution  # noqa: F401
        case "gradcli.engine.ops.ctc_loss":
            from gradcli.engine.ops import ctc_loss  # noqa: F401
        case "gradcli.engine.ops.decompositions":
            from gradcli.engine.ops import decompositions  # noqa: F401
        case "gradcli.engine.ops.dual":
            from gradcli.engine.ops import dual  # noqa: F401
        case "gradcli.engine.ops.embedding_bag":
            from gradcli.engine.ops import embedding_bag  # noqa: F401
        case "gradcli.engine.ops.gating":
            from gradcli.engine.ops import gating  # noqa: F401
        case "gradcli.engine.ops.index_reduce":
            from gradcli.engine.ops import index_reduce  # noqa: F401
        case "gradcli.engine.ops.gradient":
            from gradcli.engine.ops import gradient  # noqa: F401
        case "gradcli.engine.ops.group_norm":
            from gradcli.engine.ops import group_norm  # noqa: F401
        case "gradcli.engine.ops.histograms":
            from gradcli.engine.ops import histograms  # noqa: F401
        case "gradcli.engine.ops.inplace":
            from gradcli.engine.ops import inplace  # noqa: F401
        case "gradcli.engine.ops.interpolate":
            from gradcli.engine.ops import interpolate  # noqa: F401
        case "gradcli.engine.ops.linalg":
            from gradcli.engine.ops import linalg  # noqa: F401
        case "gradcli.engine.ops.losses":
            from gradcli.engine.ops import losses  # noqa: F401
        case "gradcli.engine.ops.lu":
            from gradcli.engine.ops import lu  # noqa: F401
        case "gradcli.engine.ops.ldl":
            from gradcli.engine.ops import ldl  # noqa: F401
        case "gradcli.engine.ops.householder":
            from gradcli.engine.ops import householder  # noqa: F401
        case "gradcli.engine.ops.nn_functional":
            from gradcli.engine.ops import nn_functional  # noqa: F401
        case "gradcli.engine.ops.packing":
            from gradcli.engine.ops import packing  # noqa: F401
        case "gradcli.engine.ops.padding":
            from gradcli.engine.ops import padding  # noqa: F401
        case "gradcli.engine.ops.patches":
            from gradcli.engine.ops import patches  # noqa: F401
        case "gradcli.engine.ops.pointwise":
            from gradcli.engine.ops import pointwise  # noqa: F401
        case "gradcli.engine.ops.pointwise_more":
            from gradcli.engine.ops import pointwise_more  # noqa: F401
        case "gradcli.engine.ops.products":
            from gradcli.engine.ops import products  # noqa: F401
        case "gradcli.engine.ops.reductions":
            from gradcli.engine.ops import reductions  # noqa: F401
        case "gradcli.engine.ops.reductions_more":
            from gradcli.engine.ops import reductions_more  # noqa: F401
        case "gradcli.engine.ops.scatters":
            from gradcli.engine.ops import scatters  # noqa: F401
        case "gradcli.engine.ops.strided_factories":
            from gradcli.engine.ops import strided_factories  # noqa: F401
        case "gradcli.engine.ops.selection":
            from gradcli.engine.ops import selection  # noqa: F401
        case "gradcli.engine.ops.shapes":
            from gradcli.engine.ops import shapes  # noqa: F401
        case "gradcli.engine.ops.grid_sample":
            from gradcli.engine.ops import grid_sample  # noqa: F401
        case "gradcli.engine.ops.nn_extra":
            from gradcli.engine.ops import nn_extra  # noqa: F401
        case "gradcli.engine.ops.sampled_activations":
            from gradcli.engine.ops import sampled_activations  # noqa: F401
        case "gradcli.engine.ops.pool_indices":
            from gradcli.engine.ops import pool_indices  # noqa: F401
        case "gradcli.engine.ops.fractional_pool":
            from gradcli.engine.ops import fractional_pool  # noqa: F401
        case "gradcli.engine.ops.pool3d":
            from gradcli.engine.ops import pool3d  # noqa: F401
        case "gradcli.engine.ops.multi_margin":
            from gradcli.engine.ops import multi_margin  # noqa: F401
        case "gradcli.engine.ops.local_response_norm":
            from gradcli.engine.ops import local_response_norm  # noqa: F401
        case "gradcli.engine.ops.fake_quantize":
            from gradcli.engine.ops import fake_quantize  # noqa: F401
        case "gradcli.engine.ops.rms_norm":
            from gradcli.engine.ops import rms_norm  # noqa: F401
        case "gradcli.engine.ops.statistics":
            from gradcli.engine.ops import statistics  # noqa: F401
        case "gradcli.engine.ops.weight_norm":
            from gradcli.engine.ops import weight_norm  # noqa: F401
        case "gradcli.engine.ops.sorting":
            from gradcli.engine.ops import sorting  # noqa: F401
        case "gradcli.engine.ops.special":
            from gradcli.engine.ops import special  # noqa: F401
        case "gradcli.engine.ops.sparse_coo":
            from gradcli.engine.ops import sparse_coo  # noqa: F401
        case "gradcli.engine.ops.special_more":
            from gradcli.engine.ops import special_more  # noqa: F401
        case "gradcli.engine.ops.triangular_solve":
            from gradcli.engine.ops import triangular_solve  # noqa: F401
        case "gradcli.engine.binomial":
            from gradcli.engine import binomial  # noqa: F401
        case "gradcli.engine.conversions":
            from gradcli.engine import conversions  # noqa: F401
        case "gradcli.engine.creation":
            from gradcli.engine import creation  # noqa: F401
        case "gradcli.engine.einsum":
            from gradcli.engine import einsum  # noqa: F401
        case "gradcli.engine.indexing":
            from gradcli.engine import indexing  # noqa: F401
        case _:
            raise ImportError(f"no area {area}")


def _table(kind: str) -> dict:
    from gradcli.engine.declarations import DECLARATIONS
    from gradcli.engine.ops.registry import OPS
    return {"function": vars(functions.F), "row": OPS, "declaration": DECLARATIONS}[kind]


def _load(kind: str, key) -> bool:
    """Load the area holding `key` (a function name, row key or (variant, name)); whether the
    table now has it."""
    from gradcli.engine.ops.area_index import area_of
    area = area_of(kind, key)
    if area == WRITTEN_BACK:
        _write_back(key[1].removesuffix("_"))
    elif area is not None:
        _import(area)
    table = _table(kind)
    if key not in table:
        load_all()
    return key in table


def _write_back(name: str) -> None:
    """Declare NAME_ from NAME's declarations, as load_all would."""
    from gradcli.engine.ops import area_index, inplace
    for variant in ("method", "torch"):
        area = area_index.area_of("declaration", (variant, name))
        if area is not None:
            _import(area)
    inplace.declare_written_back((name,))


functions.LOADER = _load

"""Record the matplotlib tables gradcli's matplotlib keeps.

Run `python tests/golden/record_matplotlib_tables.py` (matplotlib installed) to rewrite, in
gradcli/language/namespaces/: color_names.json, the CSS4, Tableau and xkcd colour tables (name ->
'#rrggbb' as matplotlib.colors holds them), and style_params.json, matplotlib.style's library
styles (`available` in order, and per style the settings among gradcli's rcParams), and
listed_colormaps.json, the colours of matplotlib's small listed colour maps (tab10, Set1...).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import matplotlib
import matplotlib.colors as colors
import matplotlib.style as style

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
importlib.import_module("gradcli.language.session")  # the runtime, before its namespaces
from gradcli.language.namespaces.pyplot_rc import DEFAULTS  # noqa: E402

HERE = ROOT / "gradcli/language/namespaces"


def main() -> None:
    tables = {"CSS4_COLORS": colors.CSS4_COLORS, "TABLEAU_COLORS": colors.TABLEAU_COLORS,
              "XKCD_COLORS": colors.XKCD_COLORS}
    (HERE / "color_names.json").write_text(json.dumps(tables, indent=0) + "\n", encoding="utf-8")
    small = {name: [list(rgb) for rgb in cmap.colors] for name, cmap in
             matplotlib.colormaps.items() if isinstance(cmap, colors.ListedColormap)
             and cmap.N <= 20 and not name.endswith("_r")}
    (HERE / "listed_colormaps.json").write_text(json.dumps(small) + "\n", encoding="utf-8")
    styles = {"available": list(style.available),
              "library": {name: {k: v for k, v in params.items() if k in DEFAULTS}
                          for name, params in sorted(style.library.items())}}
    (HERE / "style_params.json").write_text(json.dumps(styles, indent=0) + "\n",
                                            encoding="utf-8")


if __name__ == "__main__":
    main()

"""Record matplotlib's named colours for gradcli's matplotlib.colors.

Run `python tests/golden/record_color_names.py` (matplotlib installed) to rewrite
gradcli/language/namespaces/color_names.json: the CSS4, Tableau and xkcd colour tables, each a
name -> '#rrggbb' mapping as matplotlib.colors holds it.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.colors as colors

RECORD = Path(__file__).resolve().parents[2] / "gradcli/language/namespaces/color_names.json"


def main() -> None:
    tables = {"CSS4_COLORS": colors.CSS4_COLORS, "TABLEAU_COLORS": colors.TABLEAU_COLORS,
              "XKCD_COLORS": colors.XKCD_COLORS}
    Path(RECORD).write_text(json.dumps(tables, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

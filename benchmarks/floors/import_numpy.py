# The REPL floor: what `python -q` runs before its first prompt when numpy is wanted.
import numpy  # noqa: F401

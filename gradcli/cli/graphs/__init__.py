"""Pictures of a tensor's backward graph: the walk (walk.py) and its renderings (tree, DOT,
Mermaid, and SVG/PNG through Graphviz's `dot`)."""

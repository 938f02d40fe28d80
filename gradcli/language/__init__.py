"""The language: grammar, parser, name tables and interpreter.

Importing it imports the engine's areas package, which lets F and the op tables load an area by
the first name asked of it (programs may reach F before any area module is imported)."""

import gradcli.engine.ops  # noqa: F401

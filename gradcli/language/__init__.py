"""The language: grammar, parser, name tables and interpreter."""

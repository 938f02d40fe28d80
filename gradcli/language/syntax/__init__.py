"""Syntax: grammar loading, the parser, literals and Python's syntax-error texts."""

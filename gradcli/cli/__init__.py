"""The command line: typer commands, rendering and the REPL."""

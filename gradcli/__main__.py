"""`python -m gradcli` runs the command-line interface."""

from gradcli.cli.entry import main

main()

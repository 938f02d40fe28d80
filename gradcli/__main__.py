"""`python -m gradcli` runs the command-line interface."""

from gradcli.cli.app import main

main()

"""``python -m affray`` runs the command line."""

from affray.cli.main import main

main()

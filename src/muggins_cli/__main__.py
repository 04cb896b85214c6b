"""Allow ``python -m muggins_cli``."""

from muggins_cli.cli import main

main()

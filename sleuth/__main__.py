"""``python -m sleuth``."""

from sleuth.cli import main

main()

"""`python -m scripts.soaklib`: what `scripts/soak` runs."""

from scripts.soaklib.cli import main

main()

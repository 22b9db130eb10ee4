"""`python -m tests.support.soak`: what `scripts/soak` runs."""

from tests.support.soak.cli import main

main()

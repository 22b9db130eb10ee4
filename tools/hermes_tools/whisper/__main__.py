"""`python -m hermes_tools.whisper --socket PATH` (also `hermes-tool-whisper`)."""

from __future__ import annotations

from hermes_tools.runtime import main as run
from hermes_tools.whisper.tool import WhisperTool


def main() -> None:
    run(WhisperTool())


if __name__ == "__main__":
    main()

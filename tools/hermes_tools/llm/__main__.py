"""`python -m hermes_tools.llm --socket PATH` (also `hermes-tool-llm`): run the LLM worker."""

from __future__ import annotations

from hermes_tools.llm.worker import LlmWorker
from hermes_tools.runtime import main as run_tool


def main() -> None:
    run_tool(LlmWorker())


if __name__ == "__main__":
    main()

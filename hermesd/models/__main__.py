"""`python -m hermesd.models [--dir DIR] [NAME...]`: prepare the embedded models offline."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from hermesd.models import default_dir

#: model preparers: module name -> what it prepares; each module has `prepare(dir) -> Path`
PREPARERS: dict[str, str] = {"llm": "hermesd.models.gguf", "whisper": "hermesd.models.whisper"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hermesd.models")
    parser.add_argument("--dir", type=Path, default=None, help="models directory")
    parser.add_argument("names", nargs="*", help=f"which (default all): {', '.join(PREPARERS)}")
    args = parser.parse_args(argv)
    target = args.dir or default_dir()
    target.mkdir(parents=True, exist_ok=True)
    for name in args.names or list(PREPARERS):
        if name not in PREPARERS:
            print(f"unknown model {name!r}; known: {', '.join(PREPARERS)}", file=sys.stderr)
            return 64
        module = importlib.import_module(PREPARERS[name])
        path = module.prepare(target)
        print(f"{name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

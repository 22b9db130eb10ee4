"""`python -m hermesd.models [--dir DIR] [NAME...]`: prepare the embedded models offline."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from hermesd.core.model_files import default_dir

#: model preparers: name -> "module:function", a function `(dir) -> Path`
PREPARERS: dict[str, str] = {"llm": "hermesd.models.gguf:prepare",
                             "whisper": "hermesd.models.whisper:prepare",
                             "llm-1.5b": "hermesd.models.gguf:prepare_1_5b"}
#: what is prepared when no name is given (scripts/setup --all); the 1.5B only when named
DEFAULT = ("llm", "whisper")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hermesd.models")
    parser.add_argument("--dir", type=Path, default=None, help="models directory")
    parser.add_argument("names", nargs="*", help=f"which (default {', '.join(DEFAULT)}): "
                                                 f"{', '.join(PREPARERS)}")
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in PREPARERS:
            print(f"unknown model {name!r}; known: {', '.join(PREPARERS)}", file=sys.stderr)
            return 64
    target = args.dir or default_dir()
    target.mkdir(parents=True, exist_ok=True)
    for name in args.names or DEFAULT:
        module, function = PREPARERS[name].split(":")
        path = getattr(importlib.import_module(module), function)(target)
        print(f"{name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

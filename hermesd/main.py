"""`hermesd`: run the daemon in the foreground, or check a config file and exit.

Exit codes: 0 clean stop or valid config; 78 (EX_CONFIG) for a config that cannot be used, with
one `config error: <path>: <what>` line per problem on stderr; 1 for anything else.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from hermesd import __version__
from hermesd.core.errors import ConfigError

EX_CONFIG = 78

#: syslog priorities, for journald's "<N>" line prefix when running under systemd
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
             logging.CRITICAL: 2}


class _JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"<{_PRIORITY.get(record.levelno, 6)}>{super().format(record)}"


def setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):  # journald adds time and pid itself
        handler.setFormatter(_JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level.upper(), handlers=[handler])
    logging.getLogger("pymodbus").setLevel(logging.CRITICAL)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="hermesd", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--config", type=Path, metavar="FILE", help="run with this config")
    group.add_argument("--check-config", type=Path, metavar="FILE",
                       help="validate a config file and exit (0 valid, 78 invalid)")
    parser.add_argument("--log-level", default=os.environ.get("HERMESD_LOG_LEVEL", "info"),
                        choices=["debug", "info", "warning", "error"])
    parser.add_argument("--version", action="version", version=f"hermesd {__version__}")
    args = parser.parse_args(argv)

    if args.check_config is not None:
        sys.exit(check_config(args.check_config))

    setup_logging(args.log_level)
    from hermesd.core import eventloop
    from hermesd.daemon import run_daemon

    try:
        code = eventloop.run(run_daemon(args.config))
    except ConfigError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        code = EX_CONFIG
    except KeyboardInterrupt:
        code = 0
    sys.exit(code)


def check_config(path: Path) -> int:
    from hermesd.config import load_config
    from hermesd.toolspecs import checked_tool_specs

    try:
        config = load_config(path)
        checked_tool_specs(config)
    except ConfigError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        return EX_CONFIG
    print(f"{path}: valid ({len(config.devices)} devices, {len(config.points)} points, "
          f"{len(config.access.roles)} roles)")
    return 0


if __name__ == "__main__":
    main()

"""`python -m hermes_tools.serial --socket PATH`: the serial tool process the daemon starts."""

from hermes_tools.runtime import main
from hermes_tools.serial.tool import SerialTool


def run() -> None:
    main(SerialTool())


if __name__ == "__main__":
    run()

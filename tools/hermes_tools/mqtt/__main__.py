"""`python -m hermes_tools.mqtt --socket PATH` (or `hermes-tool-mqtt`): run the MQTT tool."""

from __future__ import annotations

from hermes_tools.mqtt.tool import MqttTool
from hermes_tools.runtime import main as run_tool


def main() -> None:
    run_tool(MqttTool())


if __name__ == "__main__":
    main()

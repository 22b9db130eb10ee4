"""The parts of the daemon that run beside the request path, each as one task of its group.

A component is built from the daemon's `Services`, runs until its task is cancelled, follows
config reloads, and reports its state in `status` under its name. The daemon always runs the
memory watch and the control server (and the metrics server when configured: see daemon.py);
`build_components` adds the optional ones the config asks for (LLM, MQTT bridge, voice), each
with one line.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from hermesd.config.model import Config
    from hermesd.services import Services


class Component(Protocol):
    name: str

    async def run(self) -> None:
        """Work until cancelled (the daemon's task group cancels it at stop)."""

    async def reconfigure(self, config: Config) -> None:
        """Adopt a reloaded config (already validated)."""

    def status(self) -> dict[str, Any]:
        """What `hermesctl status` shows under this component's name."""


def build_components(services: Services, running: Collection[str] = ()) -> list[Component]:
    """The optional components the config asks for, less those `running` already (a reload
    that adds an `mqtt:` section or turns voice on starts that part; one turned off stays and
    follows its config, idle)."""
    from hermesd.router.llm import LlmComponent

    config = services.config
    components: list[Component] = [] if "llm" in running else [LlmComponent(services)]
    if config.mqtt is not None and "mqtt" not in running:
        from hermesd.mqtt.bridge import MqttBridge

        components.append(MqttBridge(services))
    if config.history.enabled and "history" not in running:
        from hermesd.history.component import HistoryComponent

        components.append(HistoryComponent(services))
    if config.voice.enabled and "voice" not in running:
        from hermesd.voice.loop import VoiceLoop  # numpy only when voice is on

        components.append(VoiceLoop(services))
    return components

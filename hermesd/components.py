"""Optional parts of the daemon that run beside the request path (MQTT bridge, LLM, voice).

A component is built from the daemon when the config asks for it, runs as one task of the
daemon's task group, follows config reloads, and reports its state in `status`. Each feature
adds itself to `build_components` with one line; the daemon itself does not change.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from hermesd.config.model import Config
    from hermesd.daemon import Daemon


class Component(Protocol):
    name: str

    async def run(self) -> None:
        """Work until cancelled (the daemon's task group cancels it at stop)."""

    async def reconfigure(self, config: Config) -> None:
        """Adopt a reloaded config (already validated)."""

    def status(self) -> dict[str, Any]:
        """What `hermesctl status` shows under this component's name."""


def build_components(daemon: Daemon, running: Collection[str] = ()) -> list[Component]:
    """The components the daemon's config asks for, less those `running` already (a reload
    that adds an `mqtt:` section or turns voice on starts that part; one turned off stays and
    follows its config, idle)."""
    from hermesd.router.llm import LlmComponent

    components: list[Component] = [] if "llm" in running else [LlmComponent(daemon)]
    if daemon.config.mqtt is not None and "mqtt" not in running:
        from hermesd.mqtt.bridge import MqttBridge

        components.append(MqttBridge(daemon))
    if daemon.config.history.enabled and "history" not in running:
        from hermesd.history.component import HistoryComponent

        components.append(HistoryComponent(daemon))
    if daemon.config.voice.enabled and "voice" not in running:
        from hermesd.voice.loop import VoiceLoop  # numpy only when voice is on

        components.append(VoiceLoop(daemon))
    return components

"""The serial tool: `driver: serial` devices as points, over the standard read/write actions.

`configure` builds one `SerialDevice` per configured device (keeping those whose config did not
change, so a reload does not drop their ports); `run` keeps one task per device and follows
reloads. Two devices naming the same port would talk over each other: the second is refused
(offline, with the reason) rather than guessed at. This module never touches a port itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from hermes_tools.runtime import READ_SPEC, WRITE_SPEC, Tool
from hermes_tools.serial.device import SerialDevice, leads_to
from hermesd.core.errors import UnknownPoint

log = logging.getLogger(__name__)


class SerialTool(Tool):
    name = "serial"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.devices: dict[str, SerialDevice] = {}
        self._owner: dict[str, SerialDevice] = {}  # point id -> its device
        self._tasks: dict[str, tuple[SerialDevice, asyncio.Task[None]]] = {}
        self._changed = asyncio.Event()
        self.action(READ_SPEC, self.read)
        self.action(WRITE_SPEC, self.write)

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        devices: dict[str, SerialDevice] = {}
        ports: dict[str, str] = {}
        for dev_id, dev in sorted(config.get("devices", {}).items()):
            port = str(dev.get("port"))
            key = (leads_to(port) or port) if "://" not in port else port
            other = ports.setdefault(key, dev_id)
            blocked = None if other == dev_id else f"port {port} is already used by device {other}"
            old = self.devices.get(dev_id)
            if old is not None and old.same_config(dev) and old.blocked == blocked:
                devices[dev_id] = old
            else:
                devices[dev_id] = SerialDevice(dev_id, dev, self, blocked)
            if blocked:
                log.error("%s: %s; it stays offline", dev_id, blocked)
        self.devices = devices
        self._owner = {pid: d for d in devices.values() for pid in d.points}
        self._changed.set()
        return {"devices": len(devices), "points": len(self._owner)}

    async def run(self) -> None:
        try:
            while True:
                self._changed.clear()
                await self._follow_config()
                changed = asyncio.ensure_future(self._changed.wait())
                try:
                    done, _ = await asyncio.wait(
                        [changed, *(task for _, task in self._tasks.values())],
                        return_when=asyncio.FIRST_COMPLETED)
                finally:
                    changed.cancel()
                    await asyncio.gather(changed, return_exceptions=True)
                for task in done:
                    if task is not changed:
                        task.result()  # a device task only ends by failing: let it be seen
                        raise RuntimeError(f"{task.get_name()} stopped")
        finally:
            await self._stop(list(self._tasks))

    async def close(self) -> None:
        await self._stop(list(self._tasks))

    async def _follow_config(self) -> None:
        await self._stop([d for d, (dev, _) in self._tasks.items()
                          if self.devices.get(d) is not dev])
        for dev_id, dev in self.devices.items():
            if dev_id not in self._tasks:
                self._tasks[dev_id] = (dev, asyncio.create_task(dev.run(),
                                                                name=f"serial-{dev_id}"))

    async def _stop(self, dev_ids: list[str]) -> None:
        tasks = [self._tasks.pop(d)[1] for d in dev_ids if d in self._tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _device(self, pid: Any) -> SerialDevice:
        device = self._owner.get(pid) if isinstance(pid, str) else None
        if device is None:
            raise UnknownPoint(str(pid), f"the serial tool has no point {pid!r}")
        return device

    async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        return await self._device(args["point"]).read(args["point"])

    async def write(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        return await self._device(args["point"]).write(args["point"], args["value"])

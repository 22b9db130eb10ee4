"""The serial tool: USB-serial and serial-over-TCP line-protocol instruments as hermesd points.

Modules, in the order data flows: `link` (a port and its threads), `framing` (bytes to lines),
`points` (lines to values, values to commands), `device` (one instrument: requests, streams,
polling, reconnects), `tool` (the actions the daemon calls).
"""

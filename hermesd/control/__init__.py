"""The control socket: hermesctl's way in (framing, peer credentials, request parsing)."""

"""The control socket: hermesctl's way in (framing, peer credentials, request parsing), and the
client that hermesctl, the soak, the benchmarks and the tests talk to it with."""

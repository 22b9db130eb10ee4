"""hermesd's tool processes (installed as the `hermes_tools` package).

Each tool is a separate process that serves one Unix socket with the protocol of
`hermesd.core.protocol`; `runtime` is what every tool runs around its own actions.
"""

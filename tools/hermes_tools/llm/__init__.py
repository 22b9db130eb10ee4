"""The LLM worker: a tool process that runs the local GGUF model for the router's model stage.

It speaks hermesd's tool protocol like every tool and is supervised like them; it is its own
process so the daemon can kill it to cancel a runaway generation and so the model's memory is
isolated from the daemon's. It only ever returns text constrained by the grammar it is given;
what that text means, and whether anything happens, is decided in the daemon.
"""

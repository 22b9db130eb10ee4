"""Real things the tests start: the daemon as a process, a notify socket, a fake tool."""

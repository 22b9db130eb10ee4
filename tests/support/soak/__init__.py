"""`scripts/soak`: the fault and soak suite — the whole dev plant under load while faults are injected.

A real hermesd runs the dev plant (the Modbus PLC and the serial scale served by hermes-sim, the
MQTT yard points on a real Mosquitto broker, and a leaky `exec` tool) under a steady mix of
reads, writes, asks, MQTT commands and (when the model runs) LLM asks, while faults are injected
on a schedule: kill -9 and SIGSTOP of every tool, a broker restart, a PLC dropout, a serial
unplug, a tool that leaks memory, and a full and a read-only state disk; and, alongside the
load, a hostile mix drawn from tests/hostile's generators (control frames, words, MQTT, tool
sockets, floods) by other local users. At the end it reports requests sent, answered and lost,
latency by route, RSS growth of every process, the recovery of every fault, the hostile mix's
answers, and every write intent of the audit trail judged against policy and the words of the
request that asked for it, as JSON and as a summary, and exits non-zero when a target is missed.

Modules: `cli` (options, signals, exit code), `run` (the schedule), `plant` (the processes and
the config), `load` (the request mix and its clients), `faults` (inject, restore, judge),
`disk` (the state dir's tmpfs), `procs` (/proc), `report` (figures and targets), `hostile` (the
hostile mix), `hostile_rig` (its processes and clients), `hostile_inputs` (the process that
draws its inputs), `peer` (the process that plays another user), `hostile_report` (its
figures), `writes` (the audit trail's write intents, judged).

It must never touch anything outside its own work directory (and the tmpfs it mounts there),
never signal a process it did not start or see hermesd start, and never leave a process or a
mount behind — also when interrupted.
"""

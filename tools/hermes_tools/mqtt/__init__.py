"""The MQTT tool: hermesd's one connection to the broker (paho-mqtt, MQTT 5 or 3.1.1).

It serves `driver: mqtt` points (state topics feed `values`, writes publish to command topics
and wait for the state to confirm) and is the daemon's link to Home Assistant: the daemon asks
it to `publish` (discovery, states, answers) and it sends the requests that arrive as events.

Events it sends (beside the standard `values` and `device`):
  connection  {connected, reason, outbox}   after every connect (subscribed, birth sent) and loss
  command     {topic, text, id, dry_run, reply_to, correlation, error}   from B/N/command
  set         {topic, point, value, id, dry_run, reply_to, correlation, error}   from B/N/<point>/set
  ha_status   {online}                      Home Assistant's birth or will on <prefix>/status
  talk        {ts}                          a push-to-talk press on B/N/talk (for the voice loop)
`error` is set, and nothing else is to be acted on, when the payload was refused.
"""

from hermesd.core.deferred import defer_import

# paho imports urllib.request at its top, for a proxy named in the environment, which it looks
# up only when PySocks is installed (it is not a dependency): with http.client, email and the
# rest it brings, ~2.3 MiB of the tool's memory that nothing used. Loaded at its first use.
defer_import("urllib.request")

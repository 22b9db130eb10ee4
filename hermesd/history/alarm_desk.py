"""Alarms as hermesd serves them: the `alarms` and `ack` actions, and what the store keeps.

Every raising, clearing and acknowledgement is queued as a statement for the store's next
batch, and asks for that batch to be written now (`urgent`): an alarm is never left waiting
for the batch interval. At start the occurrences not done with (active, or cleared and not
acknowledged) are read back. `ack` takes a role that may write (an operator's, not a
viewer's); it is answered, and audited, like every action.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from hermesd.answer import Action, Answer, Route
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.core.errors import BadRequest, Forbidden
from hermesd.history.alarms import AlarmBook, AlarmEvent, Occurrence, alarm_message
from hermesd.history.periods import iso
from hermesd.history.replies import clock
from hermesd.history.store import Store
from hermesd.policy import Policy

MAX_LISTED = 50  # occurrences an `alarms` answer lists
RESTORE_SQL = ("SELECT alarm, kind, point, message, value, raised, cleared, acked, acked_by "
               "FROM alarms a WHERE raised = (SELECT max(raised) FROM alarms b WHERE "
               "b.alarm = a.alarm) AND (cleared IS NULL OR acked IS NULL)")
RECENT_SQL = ("SELECT alarm, kind, point, message, value, raised, cleared, acked, acked_by "
              "FROM alarms ORDER BY raised DESC LIMIT 50")  # MAX_LISTED


class AlarmDesk:
    def __init__(self, config: Config, policy: Callable[[], Policy],
                 urgent: Callable[[], None]) -> None:
        self.book = AlarmBook(config)
        self._policy = policy
        self._urgent = urgent
        self.statements: list[tuple[str, Sequence[Any]]] = []
        self.book.listeners.append(self._record)

    # -- the store -------------------------------------------------------------------------

    def _record(self, event: AlarmEvent) -> None:
        o = event.occurrence
        if event.what == "raised":
            self.statements.append((
                "INSERT INTO alarms (alarm, point, kind, message, value, raised) "
                "VALUES (?, ?, ?, ?, ?, ?)", (o.alarm, o.point, o.kind, o.message, o.value,
                                              o.raised)))
        elif event.what == "cleared":
            self.statements.append(("UPDATE alarms SET cleared = ? WHERE alarm = ? AND "
                                    "raised = ?", (o.cleared, o.alarm, o.raised)))
        else:
            self.statements.append(("UPDATE alarms SET acked = ?, acked_by = ? WHERE "
                                    "alarm = ? AND raised = ?",
                                    (o.acked, o.acked_by, o.alarm, o.raised)))
        self._urgent()

    def take_statements(self) -> list[tuple[str, Sequence[Any]]]:
        taken, self.statements = self.statements, []
        return taken

    def give_back(self, statements: list[tuple[str, Sequence[Any]]]) -> None:
        self.statements[:0] = statements

    def restore(self, store: Store) -> None:
        """Blocking (a store read): call from a thread."""
        self.book.restore(_occurrence(row) for row in store.query(RESTORE_SQL))

    def say(self, occ: Occurrence, lang: str) -> str:
        """An occurrence's message in `lang` (the point's name there, when it has one)."""
        d = self.book.definition(occ.alarm)
        if d is None or lang == "en":
            return occ.message
        point = self.book.config.points.get(d.point) if d.point else None
        return alarm_message(d, point, occ.value, lang)

    # -- actions ---------------------------------------------------------------------------

    async def alarms(self, ctx: RequestContext, route: Route, action: Action, zh: bool,
                     recent: Sequence[Sequence[Any]] = ()) -> Answer:
        """`recent`: the store's latest occurrences (rows of RECENT_SQL), read by the caller."""
        active_only = bool(action.args.get("active", False))
        if set(action.args) - {"active"}:
            raise BadRequest("alarms takes only `active`")
        role = self._policy().role(ctx)
        if not role.read:
            raise Forbidden(f"role {role.name} may not read alarms")
        listed: dict[tuple[str, float], Occurrence] = {}
        for row in () if active_only else recent:
            occ = _occurrence(row)
            listed[(occ.alarm, occ.raised)] = occ
        for occ in self.book.current():
            listed[(occ.alarm, occ.raised)] = occ
        shown = sorted(listed.values(), key=lambda o: -o.raised)
        if active_only:
            shown = [o for o in shown if o.cleared is None]
        shown = shown[:MAX_LISTED]
        return Answer("ok", route, Action("alarms", dict(action.args)),
                      result={"alarms": [o.to_dict(iso) for o in shown]},
                      reply=alarms_reply(self.book.active(), zh, self.say))

    async def ack(self, ctx: RequestContext, route: Route, action: Action, zh: bool) -> Answer:
        alarm_id = action.args.get("alarm")
        if not isinstance(alarm_id, str) or set(action.args) - {"alarm"}:
            raise BadRequest("ack takes `alarm`, an alarm id (hermesctl alarms lists them)")
        d = self.book.definition(alarm_id)
        if d is None:
            known = ", ".join(sorted(self.book.ids())[:10]) or "none configured"
            raise BadRequest(f"no alarm {alarm_id[:64]!r} (alarms: {known})")
        role = self._policy().role(ctx)
        allowed = role.may_write(d.point) if d.point else bool(role.write)
        if not allowed:
            raise Forbidden(f"role {role.name} may not acknowledge {alarm_id} (it takes a role "
                            "that may write)")
        checks = [f"role {role.name} may acknowledge {alarm_id}"]
        if ctx.dry_run:
            return Answer("dry_run", route, action, checks=checks,
                          reply=f"Dry run: would acknowledge {alarm_id}.")
        try:
            occ = self.book.ack(alarm_id, ctx.peer or ctx.role, time.time())
        except KeyError:
            raise BadRequest(f"{alarm_id} has nothing to acknowledge") from None
        reply = (f"已确认报警：{self.say(occ, 'zh')}。" if zh else f"Acknowledged: {occ.message}.")
        return Answer("ok", route, action, result={"alarm": occ.to_dict(iso)}, checks=checks,
                      reply=reply)


def alarms_reply(active: list[Occurrence], zh: bool,
                 say: Callable[[Occurrence, str], str] | None = None) -> str:
    now = time.time()
    if not active:
        return "没有报警。" if zh else "No active alarms."
    items = sorted(active, key=lambda o: o.raised)

    def text(o: Occurrence) -> str:
        return say(o, "zh" if zh else "en") if say is not None else o.message

    if zh:
        listed = "；".join(f"{text(o)}（{clock(o.raised, now)} 起）" for o in items[:5])
        return f"有 {len(items)} 个报警：{listed}。"
    listed = "; ".join(f"{text(o)} (since {clock(o.raised, now)})" for o in items[:5])
    more = f" and {len(items) - 5} more" if len(items) > 5 else ""
    return f"{len(items)} active alarm{'s' if len(items) > 1 else ''}: {listed}{more}."


def _occurrence(row: Sequence[Any]) -> Occurrence:
    alarm, kind, point, message, value, raised, cleared, acked, acked_by = row
    return Occurrence(alarm, kind, point, message, value, float(raised),
                      None if cleared is None else float(cleared),
                      None if acked is None else float(acked), acked_by)

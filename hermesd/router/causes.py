"""A cause said after a command to stop ("stop the chem pump, the caustic tank is empty", "stop
pump 2, it's sucking air", "shut off the RO pump, we're sanitising the membranes"): why the
operator wants it, which the command does not depend on. The router places the command without
it. After any other command a fault or a cleaning may say its verb was a slip, and is heard.

A clause is a cause only if the whole of it is one of two closed shapes, nothing before or
after: a subject of at most three words, "is"/"are"/"'s", and a condition a plant is in
("the caustic tank is empty", "grain's heating up", "the door's icing"); or "we're"/"we are"
and a cleaning or servicing of something ("we're sanitising the RO"). Anything else, however
like a cause it sounds, is heard with the command, whose guards then judge it: a word that
may take the command back, turn it round, name the point meant, give a unit, a condition or
a time (reviews atk67c and atk69: "start pump 1, we're getting it locked out", "stop pump 1,
it's due to be reopened", "set pump 1 speed to 50, it's coming in gallons").
"""

from __future__ import annotations

import re

from hermesd.router.concepts import concepts_of_text
from hermesd.router.normalize import tokens

#: where a command ends and what is said of it begins: a comma, a semicolon, or a dash with
#: spaces round it that is no minus sign ("to - 5")
_BREAK = re.compile(r"\s*(?:[,;]|\s[-–—](?!\s*\d))\s*")
#: conditions a plant is in, said of a subject ("is empty", "'s icing")
_CONDITIONS = frozenset("""
    empty full overheating leaking blocked plugged choked clogged blinding fouled dirty
    sucking cavitating frozen icing flooding overflowing spilling rising dropping falling
    climbing vibrating smoking surging hunting tripping heating cooling
""".split())
#: what may follow a condition ("sucking air", "heating up", "icing up again")
_AFTER_A_CONDITION = frozenset("up down over air again badly".split())
#: cleaning and servicing, after "we're" ("we're sanitising the RO")
_SERVICING = frozenset("""
    sanitising sanitizing sterilising sterilizing cleaning washing flushing draining purging
    descaling servicing inspecting
""".split())
#: a subject's first word ("the caustic tank", "our day tank"); nothing that points back at
#: the command or to another than the one meant ("that's full", "the other one's leaking")
_DETERMINERS = frozenset(("the", "our"))
_NOT_A_SUBJECT = frozenset("""
    that this these those it its other another one ones which what who you i he she they we
    there here everything nothing something all both none the a an our my your their
    if iff unless until till once when whenever where wherever whether while assuming
    supposing provided providing given in case because since as so though although even
    only just also and or but then now soon later
""".split())


#: what a subject or a thing serviced may be: the lexicon's things, media, their parts and
#: where they are, every word of them ("the caustic tank", "grain", "the RO")
_NAMING = frozenset(("thing", "medium", "modifier", "quantity"))
#: words no cause says, wherever they are: they could change what is asked (review atk69b:
#: "start pump 1, no tank's empty", "…, tomorrow tank's empty", "…, we're flushing after
#: lunch", "…, we're cleaning the mixer instead")
_NEVER = frozenset("""
    no not never none nothing nobody neither nor nae cancel cancelled undo abort ignore instead
    actually sorry wait oops mind mistake wrong typo rather prefer supposed should must better
    on off start stop open shut close run keep stay leave remain turn switch set put hold
    if unless until till once when whenever after before then later tomorrow tonight today
    soon morning afternoon evening night noon midnight lunch shift weekend week monday tuesday
    wednesday thursday friday saturday sunday next first last ensure check verify confirm
    make sure only just also and or but except other another else pump fan valve
""".split())


#: a command that stops ("stop", "shut off", "turn off"): the only one a cause is dropped
#: after, for a fault or a cleaning argues for stopping; after a start, an open or a value
#: it may say the verb was a slip ("start the heater, it's overheating", "start the mixer,
#: we're cleaning the mixer", "open the inlet, the tank's overflowing": review atk69c)
_STOPPING = frozenset("stop off shut kill halt".split())
_NOT_STOPPING = frozenset("start on open close run restart up set to at with raise lower "
                          "increase decrease".split())


def cause_dropped(text: str) -> str:
    """`text` without a cause said after the command, or `text` itself."""
    if any(c in text for c in "?？"):
        return text
    breaks = list(_BREAK.finditer(text.strip()))
    if not breaks:
        return text
    last = breaks[-1]
    head, tail = text.strip()[:last.start()], text.strip()[last.end():]
    words = tail.casefold().rstrip(".!").split()
    said = {w.strip(".,!;:-–—").casefold() for w in head.split()}
    if not head.isascii() or not said & _STOPPING or said & _NOT_STOPPING:
        return text
    if len(head.split()) < 2 or not tail.isascii() or not words or \
            any(w.strip("'") in _NEVER or w.endswith("n't") for w in words) or \
            not (_a_state(words) or _servicing(words)):
        return text
    if any(t.number is not None or t.unreadable or t.unit for t in tokens(tail)):
        return text
    return head


def _a_state(words: list[str]) -> bool:
    """ "the caustic tank is empty", "grain's heating up", "it's sucking air"."""
    for i, w in enumerate(words[:4]):
        if w in ("is", "are") and i:
            subject, rest = words[:i], words[i + 1:]
        elif w.endswith(("'s", "'re")):
            subject, rest = [*words[:i], w.rsplit("'", 1)[0]], words[i + 1:]
        else:
            continue
        if subject[0] in _DETERMINERS:
            subject = subject[1:]
        return 1 <= len(subject) <= 3 and (subject == ["it"] or _names(subject)) and \
            len(rest) >= 1 and rest[0] in _CONDITIONS and \
            all(r in _AFTER_A_CONDITION for r in rest[1:])
    return False


def _names(words: list[str]) -> bool:
    """Whether every word is of a thing, medium or part the lexicon knows, and none points
    back at the command or elsewhere ("the caustic tank"; not "no tank", "instead mixer")."""
    text = " ".join(words)
    if any(not w.isalpha() or w in _NOT_A_SUBJECT for w in words):
        return False
    found = [m for m in concepts_of_text(text) if m.kind in _NAMING]
    covered = {i for m in found for i in range(m.start, m.end)}
    at = 0
    for w in words:
        start = text.index(w, at)
        if not set(range(start, start + len(w))) <= covered:
            return False
        at = start + len(w)
    return True


def _servicing(words: list[str]) -> bool:
    """ "we're sanitising the RO", "we are cleaning the strainers"."""
    start = 1 if words[0] == "we're" else 2 if words[:2] == ["we", "are"] else 0
    rest = words[start + 1:]
    if rest and rest[0] in _DETERMINERS:
        rest = rest[1:]  # "the RO", "our strainers"
    return bool(start) and len(words) > start and words[start] in _SERVICING and \
        1 <= len(rest) <= 4 and _names(rest)

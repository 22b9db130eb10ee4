"""A cause said after a command ("stop the chem pump, the caustic tank is empty", "stop the
AHU fan, we're changing the HEPA filters", "start the elevator, truck waiting at the pit"):
why the operator wants it, which the command does not depend on. The router places the
command without it.

Only a clause of a known shape is a cause, never one that might take the command back, turn
it round, name the point meant or give the value's unit (review atk67c: "start pump 1, boss
wants it off", "stop pump 1, it's cancelled", "set pump 1 speed to 50, it's rpm"). After the
last comma, semicolon or dash, and nothing else said after it:
- a state of something: a subject of at most four words, "is"/"are"/"'s", and a condition a
  plant is in ("the caustic tank is empty", "grain's heating up", "it's sucking air");
- work going on: "we're" or "we are", "I'm", "they're", and what is being done to the plant
  ("we're sanitising the RO", "we're changing the HEPA filters");
- something waiting for it ("truck waiting at the pit").
Nothing in it may be a number, a unit, a negation, an on/off, run or open/closed word, a wish
("want", "need", "rather", "supposed"), a correction ("actually", "typo", "kidding"), another
thing ("the other one"), a condition or a time, a question, or a word joining another clause.
"""

from __future__ import annotations

import re

from hermesd.router.normalize import tokens

#: where a command ends and what is said of it begins
_BREAK = re.compile(r"\s*(?:,|;|\s[-–—]\s)\s*")
#: conditions a plant is in, said of a subject ("is empty", "'s heating up")
_CONDITIONS = frozenset("""
    empty emptying full filling low high hot cold overheating heating cooling leaking
    blocked plugged choked clogged blinding fouled dirty sucking cavitating dry frozen icing
    flooding overflowing spilling rising dropping falling climbing creeping drifting surging
    hunting vibrating smoking tripping waiting due arriving backing coming going
""".split())
#: work done to a plant, after "we're" ("we're sanitising the RO")
_WORK = frozenset("""
    sanitising sanitizing sterilising sterilizing cleaning washing flushing draining purging
    descaling changing replacing swapping servicing repairing fixing maintaining inspecting
    calibrating loading unloading steaming getting
""".split())
#: who works ("we're", "we are", "i'm", "they're", "crew's", "maintenance are")
_WORKERS = ("we're", "we are", "i'm", "i am", "they're", "they are")
#: words no cause says: they could change what is asked
_NEVER = frozenset("""
    not no never nothing none nobody neither nor nae isnt arent wasnt dont doesnt didnt wont
    cant cannot shouldnt wouldnt
    on off start started starting stop stopped stopping open opened opening close closed
    closing shut shutting run running runs keep keeping stay staying leave leaving remain
    turn turned switch switched set put hold idle standby auto manual
    want wants wanted need needs needed rather prefer supposed should must better gotta
    cancel cancelled canceled abort undo ignore instead
    actually sorry wait oops mistake wrong typo misspoke misspoken kidding joking joke test
    opposite reverse backwards round mind meant mean correction incorrect
    other another different else
    if when whenever unless until till once after before then later tomorrow tonight soon
    and also plus or but except only just
    you your please pls
    even anyway regardless despite though although whatever override bypass
""".split())


def cause_dropped(text: str) -> str:
    """`text` without a cause said after the command, or `text` itself."""
    if any(c in text for c in "?？"):
        return text
    pieces = _BREAK.split(text.strip())
    if len(pieces) < 2 or not pieces[-1].isascii():
        return text  # (a cause in Chinese is not read here)
    head, tail = ", ".join(pieces[:-1]), pieces[-1].rstrip(".!")
    words = [w.strip(".!") for w in tail.casefold().replace("’", "'").split()]
    if len(words) < 2 or len(head.split()) < 2 or not _a_cause(words):
        return text
    if any(t.number is not None or t.unreadable or t.unit for t in tokens(tail)):
        return text  # ("…, it's rpm", "…, the tank's at 2": a unit or a value)
    return head


def _a_cause(words: list[str]) -> bool:
    if any(w in _NEVER or w.endswith("n't") for w in words):
        return False
    said = " ".join(words)
    for worker in _WORKERS:
        if said.startswith(worker + " ") and words[len(worker.split())] in _WORK:
            return True  # "we're changing the HEPA filters"
    for i, w in enumerate(words[:5]):
        if w == "waiting" and i:
            return True  # "truck waiting at the pit"
        if i + 1 < len(words) and ((w in ("is", "are") and i) or w.endswith(("'s", "'re"))):
            # the first verb says it: "the caustic tank is empty", "it's sucking air"
            return words[i + 1] in _CONDITIONS
    return False

"""A cause said after a command to stop ("stop pump 2, it's sucking air", "shut off the RO,
we're sanitising it", "stop the carrier, there's a log crossways"): why the operator wants it,
which the command does not depend on. The router places the command without it. After any
other command a fault or a cleaning may say its verb was a slip, and is heard.

A clause is a cause only if the whole of it is one of a few closed shapes, nothing before or
after, and about the thing stopped: "it" or its own words, "is"/"'s" and a fault ("it's
cavitating", "the fan's seized", "it's running hot"); "we're" cleaning, servicing or changing
it ("we're doing a fan change"); "there's a" jam, rock or log, in it if where is said; or
people going in ("someone's going in to pull samples"). A fault of another thing is heard: the
thing stopped may be what mends it ("stop the fire pump, there's a fire", "stop the sump pump,
the sump's flooding", "stop the lube pump, the bearing's running dry": review atk71).
Anything else, however like a cause it sounds, is heard with the command, whose guards then
judge it: a word that may take the command back, turn it round, name the point meant, give a
unit, a condition or a time (reviews atk67c and atk69: "start pump 1, we're getting it locked
out", "stop pump 1, it's due to be reopened", "set pump 1 speed to 50, it's coming in
gallons").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet

from hermesd.router.concepts import concepts_of_text, lexicon, singular
from hermesd.router.normalize import canonical, tokens

#: where a command ends and what is said of it begins: a comma, a semicolon, or a dash with
#: spaces round it that is no minus sign ("to - 5")
_BREAK = re.compile(r"\s*(?:[,;]|\s[-–—](?!\s*\d))\s*")
#: faults of a machine itself, said of the thing stopped ("it's cavitating", "the fan's
#: seized"); no state of what it works on, which it may be there to mend: "it's flooding"
#: of a sump pump, "it's running hot" of a cooling fan, "it's frozen" of a trace heater,
#: "it's burning" of a fire pump (review atk71b)
_FAULTS = frozenset("""
    sucking cavitating leaking vibrating tripping surging hunting jammed stuck seized noisy
    sparking slipping binding damaged broken cracked choking blocked plugged choked clogged
    blinding fouled
""".split())
#: "running" and how, a fault ("it's running rough"); "running" alone is no fault
_RUNNING_SO = frozenset("rough backwards backward".split())
#: what may follow a fault ("sucking air", "vibrating badly", "jammed up again")
_AFTER_A_CONDITION = frozenset("up down over air again badly".split())
#: cleaning and servicing, after "we're" ("we're sanitising the RO")
_SERVICING = frozenset("""
    sanitising sanitizing sterilising sterilizing cleaning washing flushing draining purging
    descaling servicing inspecting
""".split())
#: ...and a part changed ("we're changing the filters", "we're doing a filter change"): of a
#: thing only, never a quantity ("changing the speed" may say what to do instead)
_CHANGING = frozenset("changing replacing swapping repairing greasing".split())
_SERVICE_NOUNS = frozenset("change swap replacement repair inspection service".split())
#: what blocks a machine, after "there's a" ("there's a jam", "there's a log crossways", "there's
#: a rock in the crusher" of the crusher stopped), and where it may lie
_OBSTRUCTIONS = frozenset("""
    jam blockage log board rock stone bird animal person man someone somebody
""".split())
_LYING = frozenset("crossways crosswise stuck jammed wedged caught".split())
_PLACES = frozenset("at in on under by near inside".split())
#: people going in ("someone's going in to pull samples", "the fitter is going inside")
_IN_TO = frozenset("pull take grab collect inspect clean clear free unjam unblock look sample "
                   "measure fix repair grease change swap replace retrieve".split())
_PEOPLE = frozenset("someone somebody fitter fitters electrician mechanic maintenance people "
                    "operator operators we they".split())
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
    make sure only just also and or but except other another else
""".split())


#: a command that stops ("stop", "shut off", "turn off"): the only one a cause is dropped
#: after, for a fault or a cleaning argues for stopping; after a start, an open or a value
#: it may say the verb was a slip ("start the heater, it's overheating", "start the mixer,
#: we're cleaning the mixer", "open the inlet, the tank's overflowing": review atk69c)
_STOPPING = frozenset("stop off shut kill halt".split())
_NOT_STOPPING = frozenset("start open close run restart up set to at with raise lower "
                          "increase decrease".split())
#: "on" of a command to switch on ("turn it on", "pump 2 on"), not where it is ("the fans on
#: kiln two": blind batch 70)
_ON_AFTER = frozenset("turn turned switch put kick kicked fire come keep leave stay back".split())
_ON_LAST = frozenset("now please again then and too also".split())


#: what opens a question, or a request: a clause after a question that opens so asks again
_ASKING = frozenset("""
    what what's whats which how how's hows where where's when why who whose is are was were
    do does did can could would will should shall have has any anything please pls
""".split())
#: ...and what says a clause tells something: a verb in a form a statement has
_TELLING = frozenset("is are was were got has have seems looks feels saying".split())
#: ...and what says it names what is asked, or more of it ("I mean the spa's", "spa's too")
_NAMING_AGAIN = frozenset("""
    mean meant meaning one ones too well either same scratch forget nah nope disregard belay
    bad fine okay ok yes yeah yep sure
""".split())


def cause_dropped(text: str, plant_words: AbstractSet[str] = frozenset(), *,
                  told: bool = True) -> str:
    """`text` without a cause said after the command, or `text` itself. `plant_words`: the
    words of the plant's points, which no clause told after a question may say; `told`:
    whether such a clause is dropped (the router drops it for a read only)."""
    if any(c in text for c in "?？"):
        return _told_after_a_question(text, plant_words) if told else text
    breaks = list(_BREAK.finditer(text.strip()))
    if not breaks:
        return text
    last = breaks[-1]
    head, tail = text.strip()[:last.start()], text.strip()[last.end():]
    words = tail.casefold().rstrip(".!").split()
    spoken = [w.strip(".,!;:-–—").casefold() for w in head.split()]
    said = set(spoken)
    if not head.isascii() or not said & _STOPPING or said & _NOT_STOPPING or any(
            w == "on" and not _on_a_place(spoken, k) for k, w in enumerate(spoken)):
        return text
    if len(head.split()) < 2 or not tail.isascii() or not words or \
            any(w.strip("'") in _NEVER or w.endswith("n't") for w in words) or \
            not (_a_state(words, spoken) or _servicing(words, spoken)
                 or _in_the_way(words, spoken) or _going_in(words)):
        return text
    if any(t.number is not None or t.unreadable or t.unit for t in tokens(tail)):
        return text
    return head


def _told_after_a_question(text: str, plant_words: AbstractSet[str]) -> str:
    """ "hall humidity? everybody's complaining": the question, without what is told after
    it of why it is asked (blind batch 73). Only a clause of a few plain words that tells (a
    verb of a statement, no question of its own), with no number, unit or word that could
    take back, turn round or add to what is asked (`_NEVER`: no "and", "or", "not",
    "instead", no verb of a command; `_NAMING_AGAIN`: no "I mean", "too", "nah"), and no
    word of the plant's points nor of a thing, medium or quantity the lexicon knows ("pool
    temp? the spa's freezing", "hall humidity? windows are sweating" may ask of them: reviews
    atk73, atk73b). The router drops it for a read only, and hears a write whole."""
    stripped = text.strip()
    end = max(stripped.rfind("?"), stripped.rfind("？"))
    head, tail = stripped[:end + 1], stripped[end + 1:].strip()
    words = [w.strip(".,!;:").casefold() for w in tail.split()]
    if not tail or not head[:-1].strip() or "?" in head[:-1] or "？" in head[:-1] or \
            not tail.isascii() or not 2 <= len(words) <= 8 or words[0] in _ASKING:
        return text
    if any(not w or w.strip("'") in _NEVER | _NAMING_AGAIN or w.endswith("n't")
           or canonical(w.strip("'")) in _NEVER | _NAMING_AGAIN
           or w in _ASKING - {"is", "are"} for w in words):
        return text
    if any(t.text in plant_words or canonical(t.raw) in plant_words or
           canonical(t.raw) in _naming_words() for t in tokens(tail)) or \
            any(m.kind in _NAMING for m in concepts_of_text(tail)):
        return text  # (a thing, medium or quantity said: "the jacuzzi's smelling" may ask
        # the spa's, "the boiler house is roasting" its temperature — review atk73b)
    if not any(w in _TELLING or w.endswith(("ing", "'s", "'re")) for w in words):
        return text
    if any(t.number is not None or t.unreadable or t.unit for t in tokens(tail)):
        return text
    return head


@functools.cache
def _naming_words() -> frozenset[str]:
    """Every word of the lexicon's things, media and quantities ("learner" of "learner pool")."""
    return frozenset(canonical(w) for c in lexicon().concepts.values() if c.kind in _NAMING
                     for form in c.en_forms for w in form.split() if len(w) > 2)


def _on_a_place(spoken: list[str], k: int) -> bool:
    """Whether the "on" at `k` says where ("the fans on kiln two"), not "switch on"."""
    return 0 < k < len(spoken) - 1 and spoken[k + 1] not in _ON_LAST and \
        not {spoken[k - 1], spoken[max(k - 2, 0)]} & _ON_AFTER


def _its_own(words: list[str], head: list[str]) -> bool:
    """Whether the words say the thing stopped itself: "it", or its own words again ("stop
    the mixer, the mixer's jammed"). Of another thing, a fault may be one the thing stopped
    is there to mend: "stop the fire pump, there's a fire", "stop the sump pump, the sump's
    flooding", "stop the lube pump, the bearing's running dry" (review atk71)."""
    if words == ["they"]:
        return _plural_thing(head)  # ("stop the feed screws, they're
        # blocked"; not "stop pump 2, they're cavitating": other pumps, perhaps)
    return words == ["it"] or (
        bool(words) and {singular(w) for w in words} <= {singular(w) for w in head}
        and _names(words) and singular(words[-1]) == _thing_stopped(head))


def _plural_thing(head: list[str]) -> bool:
    """Whether the thing stopped is said in the plural ("the feed screws")."""
    word = _thing_stopped(head, raw=True)
    return word is not None and singular(word) != word


def _thing_stopped(head: list[str], *, raw: bool = False) -> str | None:
    """The last word of a thing in the command, before where it is ("fan" of "stop the
    motor cooling fan", of "stop the fans on kiln two"): what was stopped."""
    before = head[:next((k for k, w in enumerate(head) if w in _PLACES and k), len(head))]
    things = [w if raw else singular(w) for w in before if w.isalpha() and any(
        m.kind == "thing" for m in concepts_of_text(w))]
    return things[-1] if things else None


def _a_state(words: list[str], head: list[str]) -> bool:
    """ "it's sucking air", "the mixer's jammed": a fault of the thing stopped."""
    for i, w in enumerate(words[:4]):
        if w in ("is", "are") and i:
            subject, rest = words[:i], words[i + 1:]
        elif w.endswith(("'s", "'re")):
            subject, rest = [*words[:i], w.rsplit("'", 1)[0]], words[i + 1:]
        else:
            continue
        if subject[0] in _DETERMINERS:
            subject = subject[1:]
        if not (1 <= len(subject) <= 3 and _its_own(subject, head)):
            return False
        if rest[:1] == ["running"] and len(rest) == 2 and rest[1] in _RUNNING_SO:
            return True  # "it's running hot"
        return len(rest) >= 1 and rest[0] in _FAULTS and \
            all(r in _AFTER_A_CONDITION for r in rest[1:])
    return False


def _in_the_way(words: list[str], head: list[str]) -> bool:
    """ "there's a jam", "there's a log crossways", "there's a rock in the crusher": something
    caught in the thing stopped (in it, if where is said)."""
    if words[:1] == ["there's"]:
        rest = words[1:]
    elif words[:2] == ["there", "is"]:
        rest = words[2:]
    else:
        return False
    if rest[:1] not in (["a"], ["an"]) or len(rest) < 2 or rest[1] not in _OBSTRUCTIONS:
        return False
    rest = rest[2:]
    if rest and rest[-1] in _LYING:
        rest = rest[:-1]
    if not rest:
        return True
    if len(rest) < 2 or rest[0] not in _PLACES:
        return False
    rest = rest[2:] if rest[1] in _DETERMINERS else rest[1:]
    return 1 <= len(rest) <= 3 and _its_own(rest, head)


def _going_in(words: list[str]) -> bool:
    """ "someone's going in to pull samples", "the fitter is going inside", "we're going in":
    people about to be where the machine moves."""
    for i, w in enumerate(words[:3]):
        if w in ("is", "are") and i:
            who, rest = words[:i], words[i + 1:]
        elif w.endswith(("'s", "'re")):
            who, rest = [*words[:i], w.rsplit("'", 1)[0]], words[i + 1:]
        else:
            continue
        if who[:1] in (["the"], ["a"], ["an"]):
            who = who[1:]
        if len(who) != 1 or who[0] not in _PEOPLE or rest[:1] != ["going"] or \
                len(rest) < 2 or rest[1] not in ("in", "inside"):
            return False
        rest = rest[2:]
        if rest[:1] == ["there"]:
            rest = rest[1:]
        # (and why: "to pull samples", a few words, no number, no other command)
        return not rest or (rest[0] == "to" and 2 <= len(rest) <= 5 and
                            rest[1] in _IN_TO and all(r.isalpha() for r in rest[2:]))
    return False


def _names(words: list[str], *, things: bool = False) -> bool:
    """Whether every word is of a thing, medium or part the lexicon knows (with `things`, no
    quantity), and none points back at the command or elsewhere ("the caustic tank"; not "no
    tank", "instead mixer")."""
    text = " ".join(words)
    if any(not w.isalpha() or w in _NOT_A_SUBJECT for w in words):
        return False
    kinds = _NAMING - {"quantity"} if things else _NAMING
    found = [m for m in concepts_of_text(text) if m.kind in kinds]
    covered = {i for m in found for i in range(m.start, m.end)}
    at = 0
    for w in words:
        start = text.index(w, at)
        if not set(range(start, start + len(w))) <= covered:
            return False
        at = start + len(w)
    return True


def _servicing(words: list[str], head: list[str]) -> bool:
    """ "we're sanitising the RO" (after "stop the RO"), "we're cleaning it", "we're doing a
    filter change" (of a filter it names): the thing stopped serviced."""
    start = 1 if words[0] == "we're" else 2 if words[:2] == ["we", "are"] else 0
    if not start or len(words) <= start:
        return False
    verb, rest = words[start], words[start + 1:]
    if rest and rest[0] in (*_DETERMINERS, "a", "an"):
        rest = rest[1:]  # "the RO", "our strainers", "a filter change"
    if verb == "doing":
        return len(rest) >= 2 and rest[-1] in _SERVICE_NOUNS and \
            len(rest) <= 4 and _its_own(rest[:-1], head)
    return verb in _SERVICING | _CHANGING and 1 <= len(rest) <= 4 and _its_own(rest, head)

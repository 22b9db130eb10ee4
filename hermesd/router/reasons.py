"""A reason said after a command ("open the make-up valve, system pressure's dropping", "stop
dewatering pump 2, it's sucking air", "CHW setpoint 6, the DNO asked"): what the operator
says it is for, which names no point and asks nothing more. The router places the command
without it; every stage and the write gate see the command alone.

Only a clause that plainly gives a reason is dropped: after a comma, semicolon or dash, a
subject and a verb ("we're", "it's", "the VFAs are", "theatres want", "DNO asked") or a
word that opens a reason ("because", "since", "as"). Never one that could change what is
asked: a number, a negation, a correction, a condition or a time, another command, a
question, or an "and"; nor one that overrides a condition ("…, even with the hydrocarbons
high": a reason to break a rule is no reason to drop).
"""

from __future__ import annotations

import re

from hermesd.router.normalize import tokens
from hermesd.router.vocabulary import WRITE_VERBS

#: where a command ends and what is said of it begins
_BREAK = re.compile(r"\s*(?:,|;|\s[-–—]\s)\s*")
#: words that open a reason
_BECAUSE = frozenset("because cause 'cause cos coz since".split())  # (not "as": "as an int")
#: verbs of a clause that says how things are or what someone wants ("the VFAs are creeping
#: up", "theatres want more suction", "the DNO asked", "we've got a patient coming in")
_FINITE = frozenset("""
    is are was were am has have had want wants wanted need needs needed asked asks said says
    reckons reckon complaining keeps kept got getting
""".split())
#: contractions of those ("it's", "we're", "bag's", "we've", "I'm")
_CONTRACTED = re.compile(r"^[a-z]+['’](?:s|re|ve|m|d)$")
#: what must not be in a reason: it could change what is asked
_NEVER = frozenset("""
    not no never nothing none nobody neither nor cancel undo abort don't dont doesn't didn't
    isn't aren't wasn't won't can't cannot shouldn't wouldn't
    actually sorry wait instead rather oops scratch mean meant correction
    if when whenever unless until till once after before then later tomorrow tonight soon
    first next minute minutes hour hours second seconds
    and also plus or but except only just
    you your please pls
    wrong mistake
    even anyway regardless despite though although whatever ignore override bypass
""".split())
#: a question asked after the command ("…, is that ok"), or after what it is of ("malaxer
#: one - how warm is the paste")
_ASKING = frozenset("is are was were can could will would should do does did shall may "
                    "might has have how what what's whats which where who why".split())


def reason_dropped(text: str) -> str:
    """`text` without a reason said after the command, or `text` itself."""
    if any(c in text for c in "?？"):
        return text
    pieces = _BREAK.split(text.strip())
    if len(pieces) < 2 or not pieces[-1].isascii():
        return text  # (a reason in Chinese is not read here)
    head, tail = ", ".join(pieces[:-1]), pieces[-1]
    words = tail.casefold().replace("’", "'").split()
    if len(words) < 2 or len(head.split()) < 2 or not _a_reason(words):
        return text
    if any(t.number is not None or t.unreadable for t in tokens(tail)):
        return text  # ("…, we're blasting on 7": a number, which may be the one meant)
    return head


def _a_reason(words: list[str]) -> bool:
    if words[0] in _ASKING or words[0] in WRITE_VERBS:
        return False  # "…, is that ok", "…, open valve 3 too"
    if any(w.strip(".,!;:") in _NEVER for w in words) or \
            any(w.endswith("n't") for w in words):
        return False
    if words[0] in _BECAUSE:
        return True
    # a subject of up to three words, then the verb ("the gas bag's emptying", "system
    # pressure's dropping", "DNO asked")
    return any(w in _FINITE or _CONTRACTED.match(w) for w in words[:4])

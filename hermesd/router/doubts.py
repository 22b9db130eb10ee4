"""What the write gate (`write_gate`) answers for a write the words do not plainly ask for:
the problem and the words that say it. Shared by the gate and its checks of on/off writes
(`switch_words`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Doubt:
    """Why the words do not plainly ask for this write, and the words that say so."""

    problem: str
    words: tuple[str, ...]


def folded(text: str) -> str:
    """`text` as its marks are judged: NFKC, with the ring accent "˚" macOS types for a degree
    sign read as one ("75˚C")."""
    return unicodedata.normalize("NFKC", text.replace("˚", "°"))

"""How hermesctl shows history and alarms: a sparkline of a series, CSV for export, a table of
alarms. Pure formatting: no I/O."""

from __future__ import annotations

import csv
import io
from typing import Any

BARS = "▁▂▃▄▅▆▇█"
SPARK_BUCKETS = 60  # buckets asked for a sparkline
CSV_BUCKETS = 1440  # buckets asked for a CSV export (a minute each over a day)


def sparkline(series: list[dict[str, Any]]) -> str:
    """One character per bucket, its height the bucket's mean; a space where there is no
    data (a gap shows as a gap)."""
    values = [b.get("mean") for b in series]
    known = [v for v in values if isinstance(v, int | float)]
    if not known:
        return ""
    lo, hi = min(known), max(known)
    out = []
    for v in values:
        if not isinstance(v, int | float):
            out.append(" ")
        elif hi == lo:
            out.append(BARS[len(BARS) // 2])
        else:
            out.append(BARS[min(len(BARS) - 1, int((v - lo) / (hi - lo) * len(BARS)))])
    return "".join(out)


def history_text(answer: dict[str, Any]) -> str:
    result = answer.get("result") or {}
    lines = [str(answer.get("reply") or "")]
    series = result.get("series") or []
    line = sparkline(series)
    if line:
        summary = result.get("summary") or {}
        lo, hi = summary.get("min"), summary.get("max")
        scale = f"  {_num(lo)} … {_num(hi)}" if lo is not None and hi is not None else ""
        lines.append(f"{line}{scale}")
        lines.append(f"{series[0]['t'][:16].replace('T', ' ')} UTC → "
                     f"{str(result.get('to', ''))[:16].replace('T', ' ')} UTC")
    return "\n".join(lines)


def history_csv(answer: dict[str, Any]) -> str:
    """The series as CSV: time (UTC), min, max, mean, last; empty cells where there is no
    data."""
    result = answer.get("result") or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["time", "point", "min", "max", "mean", "last", "unit"])
    for bucket in result.get("series") or []:
        writer.writerow([bucket["t"], _cell(result.get("point")),
                         *("" if bucket.get(k) is None else _cell(bucket[k])
                           for k in ("min", "max", "mean", "last")),
                         _cell(result.get("unit") or "")])
    return out.getvalue().rstrip("\n")


# A cell a spreadsheet would run as a formula (OWASP's CSV injection: a device's text value
# "=HYPERLINK(...)" or "=cmd|...") is written with a leading apostrophe; numbers stay numbers.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def alarms_text(answer: dict[str, Any]) -> str:
    alarms = (answer.get("result") or {}).get("alarms") or []
    if not alarms:
        return str(answer.get("reply") or "no alarms")
    rows = [("ID", "STATE", "RAISED", "CLEARED", "ACKED", "MESSAGE")]
    rows += [(str(a["id"]), str(a["state"]), _t(a.get("raised")), _t(a.get("cleared")),
              _t(a.get("acked")), str(a.get("message", ""))) for a in alarms]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:5], widths, strict=True)) +
                     "  " + r[5] for r in rows)


def _t(iso: Any) -> str:
    return str(iso)[:19].replace("T", " ") if iso else "-"


def _num(v: Any) -> str:
    return f"{v:.6g}" if isinstance(v, float) else str(v)

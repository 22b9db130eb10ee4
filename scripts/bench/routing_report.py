"""The routing benchmark's tables, its JSON file of per-command results, and the comparison of two.

Everything here works on plain data (the per-command result dicts and per-plant figures that
scripts/bench/routing.py collects, or a saved JSON file): it prints, it never routes.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

Result = dict[str, Any]


def pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def median(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else math.nan


def short(action: Mapping[str, Any] | None) -> str:
    """An action in a few words: `read fv1_temp`, `write hlt_setpoint 78`, `respond greeting`."""
    if action is None:
        return "(error)"
    args = action.get("args") or {}
    name = action.get("name")
    if name == "respond":
        text = f"respond {args.get('reason', '?')}"
        refused = args.get("refused")
        if isinstance(refused, Mapping):
            text += f" (refused {short(refused)})"
        return text
    if "points" in args:
        return f"{name} [{', '.join(map(str, args['points']))}]"
    if name == "write":
        return f"write {args.get('point')} {args.get('value')!r}"
    return f"{name} {args.get('point', '')}".strip()


def expected(expect: Mapping[str, Any]) -> str:
    if expect["action"] == "respond":
        return "respond"
    value = f" {expect['value']!r}" if expect["action"] == "write" else ""
    point = ",".join(expect["points"]) if "points" in expect else expect["point"]
    return f"{expect['action']} {point}{value}"


def _frac(results: list[Result]) -> str:
    if not results:
        return "-"
    return f"{sum(r['right'] for r in results)}/{len(results)}"


def accuracy_table(results: list[Result]) -> None:
    """Right per plant and overall, by category, language and route; confidently wrong."""
    routes = sorted({r["route"] for r in results}, key=lambda x: (x != "rule", x))
    head = (f"{'plant':20s} {'right':>8s} {'%':>6s} {'read':>8s} {'write':>7s} {'respond':>7s} "
            f"{'en':>8s} {'zh':>6s} " + " ".join(f"{x:>8s}" for x in routes)
            + f" {'conf.wrong':>10s}")
    print(head)
    print("-" * len(head))
    plants = list(dict.fromkeys(r["plant"] for r in results))
    rows: list[tuple[str, list[Result]]] = [(p, [r for r in results if r["plant"] == p])
                                            for p in plants]
    for group, title in (("own", "own"), ("eval", "held-out")):
        members = [r for r in results if r["group"] == group]
        n = len({r["plant"] for r in members})
        if n > 1 or (members and group == "eval"):
            rows.append((f"{title} ({n} plant{'s' if n > 1 else ''})", members))
    if len(plants) > 1:
        rows.append(("all", results))
    for label, rs in rows:
        right = sum(r["right"] for r in rs)
        sure = sum(r["confident"] and not r["right"] for r in rs)
        print(f"{label:20s} {_frac(rs):>8s} {100 * right / len(rs):6.1f} "
              + " ".join(f"{_frac([r for r in rs if r['category'] == c]):>{w}s}"
                         for c, w in (("read", 8), ("write", 7), ("respond", 7)))
              + " " + " ".join(f"{_frac([r for r in rs if r['language'] == lang]):>{w}s}"
                               for lang, w in (("en", 8), ("zh", 6)))
              + " " + " ".join(f"{_frac([r for r in rs if r['route'] == x]):>8s}"
                               for x in routes)
              + f" {sure:4d} ({100 * sure / len(rs):4.1f} %)")
    for label, rs in rows[len(plants):]:
        cells = [f"{lang} {c} {_frac([r for r in rs if (r['language'], r['category']) == (lang, c)])}"
                 for lang in ("en", "zh") for c in ("read", "write", "respond")
                 if any((r["language"], r["category"]) == (lang, c) for r in rs)]
        print(f"{label}, by language and category: {', '.join(cells)}")


def confident_table(results: list[Result]) -> None:
    """What the confidently wrong answers were, by kind, on the held-out plants and elsewhere."""
    wrong = [r for r in results if r["confident"] and not r["right"]]
    if not wrong:
        print("confidently wrong: none")
        return
    kinds = sorted({r["why"] for r in wrong})
    routes = sorted({r["route"] for r in wrong})
    print("confidently wrong by route: " + "; ".join(
        f"{x} {sum(r['route'] == x for r in wrong)}"
        f" (held-out {sum(r['route'] == x and r['group'] == 'eval' for r in wrong)})"
        for x in routes))
    print("confidently wrong by kind: " + "; ".join(
        f"{k} {sum(r['why'] == k for r in wrong)}"
        f" (held-out {sum(r['why'] == k and r['group'] == 'eval' for r in wrong)})"
        for k in kinds))


def latency_table(results: list[Result], plants: list[dict[str, Any]]) -> None:
    """Latency by route, each with its same-run baseline and the ratio of medians."""
    print(f"{'latency, ms':24s} {'n':>6s} {'p50':>9s} {'p95':>9s} {'p99':>9s}   baseline "
          "(same run)")
    rule = [m for p in plants for m in p["rule_ms"]]
    base = [m for p in plants for m in p["rule_base_ms"]]
    if rule:
        print(f"{'rule-routed (repeated)':24s} {len(rule):6d} {pct(rule, .5):9.3f} "
              f"{pct(rule, .95):9.3f} {pct(rule, .99):9.3f}   bare NFKC+casefold+split p50 "
              f"{median(base):.4f} ms: rules cost {median(rule) / median(base):.0f}x it")
    once = [r["ms"] for r in results if r["route"] == "rule"]
    if once:
        print(f"{'rule-routed (one pass)':24s} {len(once):6d} {pct(once, .5):9.3f} "
              f"{pct(once, .95):9.3f} {pct(once, .99):9.3f}")
    llm = [r["ms"] for r in results if r["route"] == "llm"]
    fixed = [m for p in plants for m in p["llm_base_ms"]]
    if llm:
        print(f"{'LLM-routed':24s} {len(llm):6d} {pct(llm, .5):9.0f} {pct(llm, .95):9.0f} "
              f"{pct(llm, .99):9.0f}   fixed completion p50 {median(fixed):.0f} ms: LLM-routed "
              f"p50 {median(llm) / median(fixed):.2f}x it, p95 {pct(llm, .95) / median(fixed):.2f}x")


def worker_table(plants: list[dict[str, Any]]) -> None:
    with_worker = [p for p in plants if p.get("worker")]
    if not with_worker:
        return
    print(f"{'worker':20s} {'load s':>7s} {'prefix s':>8s} {'tokens':>6s} {'ready s':>7s} "
          f"{'RSS MB before':>13s} {'after':>6s} {'LLM n':>5s} {'p50 ms':>7s} {'fixed p50':>9s}")
    for p in with_worker:
        w = p["worker"]
        llm = p["llm_ms"]
        print(f"{p['name']:20s} {w['load_s'] or 0:7.2f} {w['prefix_s'] or 0:8.2f} "
              f"{w['prefix_tokens']:6d} {w['ready_s']:7.1f} {w['rss_before']:13.0f} "
              f"{w['rss_after']:6.0f} {len(llm):5d} {median(llm):7.0f} "
              f"{median(p['llm_base_ms']):9.0f}")
    ws = [p["worker"] for p in with_worker]
    print(f"{'median':20s} {median(w['load_s'] or 0 for w in ws):7.2f} "
          f"{median(w['prefix_s'] or 0 for w in ws):8.2f} "
          f"{median(w['prefix_tokens'] for w in ws):6.0f} {median(w['ready_s'] for w in ws):7.1f} "
          f"{median(w['rss_before'] for w in ws):13.0f} {median(w['rss_after'] for w in ws):6.0f}")


def wrong_list(results: list[Result]) -> None:
    for plant in dict.fromkeys(r["plant"] for r in results):
        wrong = [r for r in results if r["plant"] == plant and not r["right"]]
        if not wrong:
            continue
        print(f"\n-- wrong on {plant} ({len(wrong)}) --")
        for r in wrong:
            mark = "!" if r["confident"] else " "
            offered = ""
            if r.get("candidates") and r["route"] == "llm":
                offered = f"; candidates {', '.join(r['candidates'])}"
            print(f" {mark} {r['category']:7s} {r['language']} {r['route']:5s} {r['text']!r}: "
                  f"expected {expected(r['expect'])}; chose {short(r['action'])}"
                  f" [{r['why']}]{offered}")
    print("\n(! = confidently wrong)")
    missed = [r for r in results if r["route"] == "llm" and not r["right"]
              and r["expect"]["action"] != "respond"]
    if missed:
        outside = sum(not set(r["expect"].get("points") or [r["expect"].get("point")])
                      <= set(r.get("candidates", [])) for r in missed)
        print(f"LLM-routed misses of a read or write: {len(missed)}; the expected point was not "
              f"among the rules' candidates in {outside} of them")


def tables(results: list[Result], plants: list[dict[str, Any]], *, show_wrong: bool) -> None:
    """Every table, from a run just made or a saved one."""
    accuracy_table(results)
    print()
    confident_table(results)
    print()
    latency_table(results, plants)
    print()
    worker_table(plants)
    if show_wrong:
        wrong_list(results)


def reprint(path: Path, *, show_wrong: bool) -> None:
    run = json.loads(path.read_text(encoding="utf-8"))
    meta = run["meta"]
    print(f"{path}: {meta.get('model')} at {meta.get('commit')}, {meta.get('time')}, load "
          f"average {meta['load_start'][0]:.1f} at start, {meta['load_end'][0]:.1f} at the end\n")
    tables(run["results"], run["plants"], show_wrong=show_wrong)


def save(path: Path, meta: dict[str, Any], plants: list[dict[str, Any]],
         results: list[Result]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"meta": meta, "plants": plants, "results": results},
                               ensure_ascii=False, indent=1), encoding="utf-8")


def _keyed(results: list[Result]) -> dict[tuple[str, str, int], Result]:
    """Results by (plant, text, occurrence), so files whose order changed still line up."""
    seen: dict[tuple[str, str], int] = {}
    out = {}
    for r in results:
        k = (r["plant"], r["text"])
        seen[k] = seen.get(k, 0) + 1
        out[(*k, seen[k])] = r
    return out


def compare(a_path: Path, b_path: Path) -> None:
    """Which commands changed from right to wrong (and back) between two saved runs."""
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in (a_path, b_path)]
    a, b = (_keyed(run["results"]) for run in runs)
    for label, run, path in (("A", runs[0], a_path), ("B", runs[1], b_path)):
        rs = run["results"]
        sure = sum(r["confident"] and not r["right"] for r in rs)
        meta = run["meta"]
        print(f"{label}: {path} — {meta.get('model')}, {meta.get('commit', '?')}: right "
              f"{_frac(rs)}, confidently wrong {sure}")
    common = [k for k in a if k in b]
    for title, turn in (("right in A, wrong in B", (True, False)),
                        ("wrong in A, right in B", (False, True))):
        changed = [k for k in common if (a[k]["right"], b[k]["right"]) == turn]
        print(f"\n{title}: {len(changed)}")
        for k in changed:
            print(f"  {k[0]:18s} {k[1]!r}: expected {expected(a[k]['expect'])}; A "
                  f"{short(a[k]['action'])} ({a[k]['route']}), B {short(b[k]['action'])} "
                  f"({b[k]['route']})")
    moved = [k for k in common if a[k]["right"] == b[k]["right"] and not a[k]["right"]
             and short(a[k]["action"]) != short(b[k]["action"])]
    if moved:
        print(f"\nwrong in both, differently: {len(moved)}")
        for k in moved:
            print(f"  {k[0]:18s} {k[1]!r}: A {short(a[k]['action'])}, B {short(b[k]['action'])}")
    only = [k for k in a if k not in b] + [k for k in b if k not in a]
    if only:
        print(f"\nin one run only: {len(only)} commands")

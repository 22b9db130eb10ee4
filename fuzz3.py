"""fuzz3.py TREE N SEED: token soup of the shapes of 8eca40c (signs before Chinese numerals and
X度半, 调整/调节, and-a-half, 'a' before time words, question tails, instrument names, new units,
new lexicon forms) on several plants, rules mode and mc (model answers a random point).
EXC = exception (CRIT). BAD = a write whose value's sign differs from the text's minus, or a write
after 调整/调节 directly before a value, or a write with a cancelling tail after '?'."""
import asyncio, json, logging, random, re, sys
from pathlib import Path
TREE = sys.argv[1]; N = int(sys.argv[2]); rnd = random.Random(int(sys.argv[3]))
sys.path.insert(0, TREE); logging.disable(logging.CRITICAL)
from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.causes import cause_dropped
from hermesd.router.concepts import simplified
from hermesd.router.normalize import units_joined
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, model_checked, routed_without_model
PL = {}
for n in ["zh2", "pool", "half", "tunnel", "instr", "letters2", "esp2", "firepump", "pools", "misc", "hvac"]:
    p = Path('/work/atk73b/plants')/f'{n}.json'
    cfg = exec_plant("p", json.loads(p.read_text())); PL[n] = (cfg, Router(cfg))
SIGNS = ["-", "－", "−", "‒", "―", "–", "—", "﹣", "+", "＋", "⁻", "₋", "ー", "~", "", "", "", "负", "零下"]
ZH = ["冷库温度设定", "烘箱温度设定", "水箱液位设定", "按摩池水温设定", "1号电泵", "电潜泵", "空调室温设定", "儿童池水温", "加药泵冲程频率设定"]
VERBS = ["改成", "调到", "调整", "调节", "调整：", "调节，", "设为", "", "改", "调", "调整个", "给到", "调整 "]
NUMS = ["四", "十八", "二十五", "两", "4", "18", "一百八", "三", "零"]
TAILS = ["度半", "米半", "度", "度半吧", "点五度", "度半小时后", "半", "", "度半。"]
EN = ["set pump 1 speed to", "set the crusher house dust alarm limit to", "set tunnel dust alarm limit to",
      "set temperature control valve 3 temperature to", "set level switch 2 level to", "set zone 3 heater A day setpoint to",
      "can you set the spa setpoint to", "set the slurry density setpoint to", "station 4 pump a hour meter", "line 2 filler a shift count",
      "set IMM 2 injection rate to", "pool temp", "free chlorine", "spa setpoint"]
ENV = ["6 and a half", "one and a half", "-18 and a half", "40 and a half percent", "2 and a half thousand", "500 ug/m3", "2 mg/m³",
       "1500 kg/m3", "50 g/m2", "20 kg/m²", "6 quarts a day", "3 litres a shift", "a day", "a half", "and a half", "12"]
QT = ["?", "? scratch that, it's fine", "? jacuzzi's freezing", "? the other's freezing", "? nah, it's fine", "? I mean the spa's",
      "? forget it, parents are complaining", "", "? hmm, jacuzzi's", "? it's reading 30", "? the boiler house is roasting"]
exc = bad = writes = 0
for k in range(N):
    plant = rnd.choice(list(PL)); cfg, r = PL[plant]
    if rnd.random() < 0.5:
        text = rnd.choice(["", "把", "请把"]) + rnd.choice(ZH) + rnd.choice(VERBS) + rnd.choice(SIGNS) + rnd.choice(NUMS) + rnd.choice(TAILS)
    else:
        text = rnd.choice(EN) + " " + rnd.choice(ENV) + rnd.choice(QT)
    for mode in ("rules", "mc"):
        try:
            if mode == "rules":
                got = asyncio.run(routed_without_model(r, text))
            else:
                t = cause_dropped(r.rules.compounds_written(r.rules.places_written(r.rules.specs_written(units_joined(simplified(text))))), r.rules.profiles.plant_words)
                pid = rnd.choice(list(r.rules.points))
                pt = r.rules.points[pid]
                want = Action("write", {"point": pid, "value": (pt.min if pt.min is not None else 1)}) if pt.writable and pt.kind != "bool" else Action("read", {"point": pid})
                got = model_checked(r, cfg, t, want)
                if got.name == "write":
                    s = gated(t, r.rules.points[got.args["point"]], got.args.get("value"), r.rules.profiles, r.rules.analyse(t).toks)
                    got = s if s is not None else got
        except Exception as e:
            exc += 1; print(f"EXC {mode} {plant} {text!r}: {type(e).__name__}: {e}"); continue
        if got.name != "write" or mode != "rules": continue
        writes += 1
        v = got.args.get("value")
        neg = bool(re.search(r"[-－−‒―–—﹣⁻₋]|负|零下|minus", text))
        why = None
        if isinstance(v, (int, float)) and not isinstance(v, bool) and neg and v > 0: why = "sign lost"
        if re.search(r"调[整节][^到至为成]", text): why = why or "调整/调节 before a value"
        if re.search(r"scratch|nah|forget|hmm|other's|jacuzzi", text): why = why or "tail dropped"
        if re.search(r"\bA day\b|\ba day setpoint", text): why = why or "letter A dropped"
        if why:
            bad += 1; print(f"BAD {plant} {text!r} -> write {got.args.get('point')}={v} ({why})")
print(f"SUMMARY {TREE} texts={N} writes={writes} bad={bad} exceptions={exc}")

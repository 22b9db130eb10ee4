"""The last check before a write that words asked for, whichever stage placed it.

The rules, the semantic stage and the model each propose; this gate asks one question of the
words alone: do they plainly ask, now, for this one value on this one point? It is kept apart
from the stages so that none of them can talk its way past it, and it is deliberately simple:

- **one value, stated**: the numbers of the command that do not name the point ("pump 1") must
  be exactly one, equal to the value written; an on/off point needs its on or off word (or 1/0)
  and no other number; a choice must be named. Nothing unreadable, no ordinal or number that
  names some other thing ("pump 2" is no value for pump 1).
- **now, and meant**: no condition, time or deferral ("if", "when", "at 5 pm", "in 10
  minutes", "tomorrow", "如果", "明天", "5点"), no question ("should I", "?", "❓", "吗", "谁",
  "..., right"), no negation ("don't", "不要"), no statement of a state or report of a change
  ("valve 2 is open", "2号阀打开了", "we set it to 5", "切换到手动过").
- **exact**: no approximation or bound ("about", "at least", "~", "一千多", "1000以上"), no
  change by an amount ("by 100", "raise 100"), no fraction word.
- **one target**: no plural or second target ("all", "both", "valves", "and", "所有", "和").
- **its unit**: every unit the command names is the point's own ("°F" is no value for a °C
  point, "%" none for rpm).

The words of the point's own names are never held against it ("After-cooler fan" may say
"after"). Intents of the config are the plant's own phrases and do not come here. A doubt is
answered with a question back naming the words; nothing is sent to any device.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Point
from hermesd.replies import gate_question, is_chinese, printable
from hermesd.router.choices import named_choices, said_in_form
from hermesd.router.concepts import lexicon, unaccented
from hermesd.router.coverage import (
    Term,
    bridge_words,
    explained,
    in_its_unit,
    lone_character,
    terms,
    unit_ids,
    unit_words,
)
from hermesd.router.doubts import Doubt
from hermesd.router.doubts import folded as _folded
from hermesd.router.normalize import (
    LIGHTS,
    MINUS_SIGNS,
    ON_VERBS,
    Token,
    canonical,
    capitals,
    case_matters,
    content,
    flame_verb,
    preposition_on,
    question_mark,
    tokens,
    unit_symbol,
    unspaced,
)
from hermesd.router.numbers import Number, exact, is_cjk
from hermesd.router.other_values import a_change_unsaid as _a_change_unsaid
from hermesd.router.other_values import role_unsaid as _role_unsaid
from hermesd.router.other_values import time_of as _time_of
from hermesd.router.poles import (
    choice_words,
    opposed,
    opposite_words,
    point_poles,
    said_poles,
)
from hermesd.router.profiles import SETPOINT_WORDS, Profile, Profiles
from hermesd.router.rules import (
    LIT_ROLES,
    LIT_THINGS,
    WAYS,
    StateConflict,
    described_numbers,
    english_labels,
    point_sense,
    sense_problem,
    sense_shown,
    sense_unsaid,
    state_named,
    unit_after,
    unpaired,
)
from hermesd.router.switch_words import lettered_unsaid, switchgear, unsaid_part
from hermesd.router.vocabulary import (
    OFF_WORDS,
    ON_WORDS,
    PARTICLE_VERBS,
    QUANTITIES,
    RELATIVE_VERBS,
    STATE_PHRASES,
    STATE_VERBS,
    UNDO_PREFIXES,
    UNIT_WORDS,
    WRITE_VERBS,
    ZH_WORDS,
)
from hermesd.value_maps import spellings

#: how well the point must explain each word of a write that says which point is meant: by a
#: word, concept, unit or form of its own (a guess from a unit shared by many quantities, or a
#: word that merely begins like one of its words, is not enough to write)
EXPLAINED = 0.6

#: the problems, in the order they are looked for (the first found is answered)
PROBLEMS = ("unreadable", "negation", "correction", "when", "question", "approximate", "relative",
            "several_targets", "unit", "unexplained", "other_thing", "which", "several",
            "sense", "part", "switchgear", "not_stated")

_NEGATION = frozenset("not never no nothing neither nor without cancel undo abort cannot nobody "
                      "none forbid forbidden prohibited".split())
#: "don't", "mustn't", "didnt": a negated auxiliary, with or without its apostrophe
_NEGATED = re.compile(r"(?:n['’]t|^(?:do|does|did|is|are|was|were|wo|ca|can|could|would|should|"
                      r"must|might|need|has|have|had|ai|sha)nt)$")
_WHEN = frozenset("""
    if when whenever unless once after before until till then later soon tomorrow tonight
    today yesterday daily hourly weekly schedule scheduled every o'clock oclock am pm noon
    midnight morning evening afternoon night minute minutes second seconds hour hours day days
    week weeks sec secs mins hr hrs wait timer eventually moment next shortly afterwards
    temporarily briefly during while meanwhile monday tuesday wednesday thursday friday
    saturday sunday weekend shift tomorrow's tonight's latest earliest startup start-up boot
    reboot restart
""".split())
_CORRECTION = frozenset("actually sorry instead rather oops nope correction mean meant scratch "
                        "oh hmm erm um uh halt".split())
_QUESTION = frozenset("""
    should shall may might must do does did is are was were am has have had been being be what
    whats what's which who whom whose why how whether tell remind notify wonder think maybe
    perhaps suppose check see know said says say saying told asked asks wants wanted reads
    shows showing displays indicates reading running operating turning spinning sitting
    currently already still ok okay safe someone somebody anyone anybody everyone he she they
    i'd i'll example test simulate simulation pretend imagine
    hypothetically probably guess translate note log report reports reported record measured
    measures measuring showed shown status state condition yet presently coming going
    looking
    there's theres
""".split())
#: the last word of a statement that asks for it to be confirmed ("pump mode manual, right")
_TAGS = frozenset("right true false".split())
#: "you want ...", "you need ...": what the listener is asked or told of, not asked to do
_WISHED = frozenset("want wanna need needed wanted".split())
#: "can/could/would/will you ..." is a request made politely, not a question
_POLITE = frozenset("can could would will".split())
#: verbs "up to" a value completes ("speed up to 950", "ramp it up to 40", "bump the conveyor
#: up to 40"); without a verb before it, "pump 1 up to 1200" is a bound
_UP_VERBS = frozenset("speed ramp crank turn bring step wind warm heat spin dial bump jack "
                      "throttle take push knock".split())
#: other verbs that bring a value up or down to one ("can you get the line speed up to 150",
#: "nudge the fan up to 60": review atk57b)
_TO_VERBS = frozenset("get nudge tweak ease lift trim pull want need".split())
#: ...and that bring it down to one only ("cool jet two down to 60", "drop the kiln down to
#: 850": blind batch 69; "cool jet 2 up to 90" is no change said: review atk69)
_DOWN_VERBS = frozenset("cool chill dry drop lower slow cut reduce".split())
#: the first word of what a verb opening a command acts on ("speed the grate up to 12")
_OBJECT_OPENING = frozenset("the it its that this our my".split())
#: words that say what of a thing is meant, not which thing ("speed setpoint up to 30")
_NOT_A_THING = QUANTITIES | frozenset("setpoint sp target demand limit reference ref command "
                                      "cmd output rate value reading".split())


def _numbered_thing(toks: list[Token]) -> bool:
    """Words that name a numbered thing and nothing of it ("ironer 2", "line 3 fan"): what a
    verb opening a command acts on."""
    return any(t.is_id for t in toks) and all(
        t.is_id or (t.number is None and t.text not in _NOT_A_THING and t.raw not in _NOT_A_THING
                    and t.raw.isalpha()) for t in toks)
#: words a plain write may say besides the point's own, in English and Chinese: manner, urgency,
#: politeness, who asks ("I need you to"), "keep"/"leave" a state, "again", "back to"
MANNER = frozenset("""
    go ahead try again back immediately now right away quickly fully completely wide keep leave
    bring take want need let's lets pls plz please kindly u you i setpoint target sp true false
    ramp crank push run
    can could would will asap thx ty thanks cheers hey ok okay
    马上 马 上 立即 立刻 赶紧 尽快 快点 请您 您 劳驾 哦 哈 辛苦了 先 再 能 可以 可 以 帮 帮我
    帮忙 麻烦 一下 请 好 到 为 至 成 里 全 最大
    最 大
""".split())
#: how a unit is spelled besides its symbol, by the symbol of the point's unit
UNIT_SPELLINGS = {
    "rpm": "r rev revs revolutions per min minute minutes 转 分 分钟 每分钟 转每分",
    "°c": "c deg degc degree degrees celsius 度 摄氏度",
    "°f": "f deg degf degree degrees fahrenheit 华氏度",
    "m/min": "m meter meters metre metres per min minute mpm 米 分钟 每分钟 米每分钟",
    "m/s": "m meter meters metre metres per s sec second 米 秒 每秒 米每秒",
    "m³/h": "m3 cubic meter meters metre metres per h hour 立 方 立方 立方米 米 小时 每小时",
    "nm³/h": "nm3 normal cubic meter meters metre metres per h hour 标 立 方 标方 立方 小时 每小时",
    "sm³/h": "sm3 standard cubic meter meters metre metres per h hour 标 立 方 立方 小时 每小时",
    "m³/min": "m3 cubic meter meters metre metres per min minute 立 方 立方 立方米 米 分钟 每分钟",
    "nm³/min": "nm3 normal cubic meter meters metre metres per min minute 标 立 方 标方 立方 分钟 "
               "每分钟",
    "l/min": "l litre litres liter liters per min minute lpm 升 分钟 每分钟",
    "l/s": "l litre litres liter liters per s sec second 升 秒 每秒",
    "l": "l litre litres liter liters 升 公升",
    "kg": "kg kilo kilos kilogram kilograms 千克 公斤",
    "t": "t ton tons tonne tonnes 吨",
    "m³": "m3 cubic meter meters metre metres 立 方 立方 立方米 方",
    "kg/h": "kg kilo kilos kilogram kilograms per h hour 千克 公斤 小时 每小时",
    "t/h": "t ton tons tonne tonnes per h hour 吨 小时 每小时",
    "t/d": "t ton tons tonne tonnes per d day tpd 吨 天 每天 日 每日",
    "%": "percent pct per cent 百分之",
    "%rh": "percent pct per cent rh 百分之",  # "to 58%": of a humidity in %RH, its per cent
    "s": "s sec secs second seconds 秒 秒钟",
    "min": "min mins minute minutes 分 分钟",
    "h": "h hr hrs hour hours 小时",
    "d": "d day days 天",
    "bar": "bar 巴",
    "kw": "kw kilowatt kilowatts 千瓦",
    "hz": "hz hertz 赫兹",
}
#: units no point of ours is in unless it says so: imperial, per mille, rates of other lengths
_FOREIGN_UNITS = re.compile(
    r"(?<![a-z])(?:in|ft|yd|mi)\s*/\s*(?:s|sec|min|h|hr)\b|‰|‱|\b(?:mph|fpm|fps|ips|inch|inches"
    r"|feet|foot|ft|yards?|miles?|gallons?|gal|lbs?|pounds?|oz|rankine|permille|per\s+mille"
    r"|basis\s+points?|bps|krpm|rps|rad/s)\b")


def _spellings(unit: str | None) -> frozenset[str]:
    symbol = unit_symbol(unit or "") or (unit or "").casefold()
    spelled = frozenset(UNIT_SPELLINGS.get(symbol, "").split()) | {symbol}
    if "/" in symbol and symbol not in UNIT_SPELLINGS:
        # "50 l/hr", "5 kg/day", "2 °C per hour": a rate's time and what it counts, each as
        # people spell them
        counted, _, per = symbol.rpartition("/")
        spelled |= frozenset(UNIT_SPELLINGS.get(counted, "").split())
        if (time := _time_of(per)) in _TIME_WORDS:
            spelled |= {"per", *_TIME_WORDS[time].split()}  # ("per" of nothing else after
            # a number: `_per_its_own`)
    rate = _A_RATE.fullmatch(symbol)
    if rate is not None and symbol not in UNIT_SPELLINGS:
        # "strokes/min" said "12.5 strokes per minute", "40 strokes a minute"
        counted, per = rate.groups()
        spelled |= {counted, counted.rstrip("s"), "per", "a", "an", *_TIME_WORDS[per].split()}
    if rate is not None and symbol not in UNIT_SPELLINGS:
        counted = rate.group(1)
        for noun in (counted, counted.rstrip("s"), counted[:-2] if counted.endswith("es") else ""):
            # 每分钟120只 of "birds/min": what is counted, by its measure word (never another
            # thing's: 140瓶 of birds, 60次 of mL/min, review atk63)
            spelled |= frozenset(_MEASURE_WORDS.get(noun, "").split())
    return spelled


#: a time said with 每 ("every"), which is a rate's only beside its number (`_NUMBER_NEXT`,
#: `_NUMBER_BEFORE`, a unit of at most three characters between)
_EVERY = re.compile(r"每(?:个)?(?:小时|钟头|分钟|分|秒钟|秒|天|日)")
#: ...what follows a 每 of "every" time: a change to make then (每小时把…, 每天一定调…)
_SCHEDULED = re.compile(r"(?:一定|都|要|再|就|必须|务必|会)?(?:把|将|调|设|改|定|开|关|启|停|保持|"
                        r"控制|加|减|升|降|提)")
_COUNTED = "unit.count_pcs"  # the lexicon's unit of things counted (个, 瓶, 次)
_NUMBER_NEXT = re.compile(r"([0-9零〇一二两三四五六七八九十百千万点.]+)(\S{0,4})")
_NUMBER_BEFORE = re.compile(r"([0-9零〇一二两三四五六七八九十百千万])([^\W\d_]{1,3})\Z")
#: the times a rate is per, as its unit's spellings write them
_PERIODS = frozenset("h hr hrs hour hours min mins minute minutes s sec secs second seconds d "
                     "day days 小时 分钟 分 秒 天".split())
#: the measure words Chinese counts things with ("120只", "四千瓶", "30次"), by the thing
#: a rate's unit counts
_MEASURE_WORDS = {
    "bottle": "瓶 支", "bag": "袋 包", "sack": "袋", "bird": "只 羽", "chicken": "只",
    "animal": "只 头", "head": "头 只", "pig": "头", "stroke": "次", "cycle": "次",
    "shot": "次 模", "piece": "个 件 块", "part": "个 件", "item": "个 件", "pack": "包",
    "packet": "包", "case": "箱", "box": "箱 盒", "carton": "箱", "can": "罐 听",
    "sheet": "张 片", "barrel": "桶", "drum": "桶", "egg": "枚 个", "pallet": "托",
}


def _a_unit(word: str) -> bool:
    """Whether the lexicon knows a Chinese word as a unit of a measure (毫升, 吨), not of a count
    (个, 瓶, 次: what a count rate counts is its own unit's word, `_MEASURE_WORDS`)."""
    return any(c.id != _COUNTED for c in lexicon().units(word))


#: a count per a time, as a faceplate writes it ("strokes/min", "bags/h", "cycles/s")
_A_RATE = re.compile(r"([a-z]{2,})\s*/\s*(min|s|h)")
_TIME_WORDS = {"min": "min mins minute minutes 分钟 每分钟", "s": "s sec secs second seconds 秒 每秒",
               "h": "h hr hrs hour hours 小时 每小时", "d": "d day days 天 每天 日 每日"}


_APPROXIMATE = frozenset("""
    about around approximately approx appr roughly nearly almost circa ca c some ish least most
    more less over under above below beyond within between max maximum minimum upto greater
    fewer plus than something near like tops odd north south ballpark limit cap capped
""".split())
_RELATIVE = frozenset("""
    by increase decrease raise lower reduce bump boost drop slow add subtract double triple halve
    twice times step steps notch notches bit little faster slower hotter colder warmer cooler
    higher up down another extra increment decrement ramp nudge from
""".split())
_FRACTIONS = frozenset("half halves third thirds quarter quarters fraction halfway slightly "
                       "partially partly crack cracked".split())
_SEVERAL = frozenset("""
    all every each both everything whole entire rest others other together also too and &
    plus respectively either or any ditto same whichever whatever including
""".split())
#: the English words that make a write doubtful, by problem, in the order they are looked for
_EN = (("negation", _NEGATION), ("correction", _CORRECTION), ("when", _WHEN),
       ("question", _QUESTION | _POLITE), ("approximate", _APPROXIMATE | _FRACTIONS),
       ("relative", _RELATIVE), ("several_targets", _SEVERAL))

#: Chinese words that make a write doubtful, by problem (matched as whole segments)
_ZH = {
    "negation": "不 别 没 勿 莫 未 不要 不用 别再 取消 禁止 严禁 禁 甭 无需 无须 免 不是 并非 "
                "不必 不需 不需要 没必要 何必",
    "correction": "算了 其实 不对 错了 说错 搞错 改口",
    "when": "如果 假如 假设 要是 若是 若 的话 一旦 只要 除非 直到 等到 之前 以前 以后 之后 然后 "
            "稍后 等会 等会儿 等一下 等一会 等下 等等 稍等 待会 过会 一会儿 回头 改天 晚点 明天 明早 "
            "今天 今晚 晚上 早上 "
            "上午 下午 中午 凌晨 分钟 小时 秒钟 秒 天 点钟 每天 每小时 每分钟 每秒 定时 时候 时 后 前 "
            "每周 每星期 每礼拜 每月 每年 每班 周一 周二 "
            "周三 周四 周五 周六 周日 周末 下班 上班 必要 再说",
    "question": "吗 呢 么 什么 怎么 为什么 如何 是否 有没有 是不是 多少 几 谁 哪 哪个 应该 情况 "
                "一直 仍 仍然 依然 依旧 还在 "
                "需要 提醒 告诉 通知 检查 看看 是 已 已经 着 开着 关着 目前 正在 说 让 要求 叫 他 她 "
                "他们 她们 对吧 可以吧 行吧 好吧 例如 比如 测试 模拟 可能 也许 或许 兴许 最好 "
                "应当 得要",
    "approximate": "多 左右 大约 约 大概 差不多 以上 以下 上下 至少 最多 超过 不到 不超过 "
                   "低于 高于 大于 小于 之间 来 将近 接近 最高 最低 上限 下限 以内 封顶 出头 附近 "
                   "慢慢 缓慢 缓缓 逐渐 逐步 渐渐",
    "relative": "增加 减少 提高 降低 调高 调低 升高 加 减 升 降 倍 一半 分之 半 调快 调慢 提速 "
                "降速 上调 下调 增大 减小 加快 放慢 一点 微 稍 一些",
    "several_targets": "所有 全部 全都 都 每 每个 每台 各 各个 和 与 及 以及 跟 还有 同时 一起 "
                       "分别 或 或者 还是 、 其它 其他 别的 其余 剩下 也 两台 几台 并 连同 包括 "
                       "全厂 整排 全",
}
#: a change verb followed by one of these sets a value ("提高到1000" raises it to 1000)
_ZH_TO = ("到", "至", "为", "成")
#: a verb of setting to a value that ends the command: what it was set to is not said
_ZH_CUT_OFF = re.compile(r"(开到|开至|关到|关至|调到|调至|设为|设到|设成|改成|改为|改到|调为|调成|"
                         r"设置为|设定为|设置到|设定到|提高到|升高到|降低到|降到|升到|加大到|减小到|"
                         r"切换到|切到)[\s。，,.!！?？…~]*$")
_ZH_NUMERAL = frozenset("零〇一二三四五六七八九十百千万亿两0123456789")
_STATE_DONE = "了"  # "2号阀打开了": a state, unless "把" makes it a command ("把2号阀打开了")
#: "切换过手动", "切换到手动过": done once (a report), after a verb or ending the command; 过 of
#: a word (过滤, 超过) is a segment of that word
_DONE_BEFORE = "过"
_ZH_SUBJECTS = ("我", "他", "她", "你", "您", "它")  # 我把1号泵设为1200了: a report of what was done


def doubt(text: str, point: Point, value: Any, profiles: Profiles | None = None,
          toks: list[Token] | None = None) -> Doubt | None:
    """None when `text` plainly asks, now, for `value` on `point`; else why not. With the
    plant's `profiles`, every word that says which point is meant must be one `point` explains
    (`toks`: the command's tokens as the router read them)."""
    own = _Own.of(point)
    nfkc = _folded(text)
    hidden = _hidden(text, nfkc)
    if hidden:
        return hidden
    toks = tokens(text) if toks is None else toks
    folded = nfkc.casefold()
    chosen = tuple(said.casefold() for choice, said in spellings(point) if choice == value)
    return (_unreadable(toks, own) or _pasted(nfkc, toks) or _no_change_asked(text, own, chosen)
            or _emergency_switched(toks, folded, point)
            or _reported(toks, folded, own.raws) or _state_chosen(toks, point, value)
            or _english_words(toks, own, point, _unit_as_written(text, toks, point),
                              capitals(text))
            or _by_an_amount(toks, folded) or _plus_as_a_change(toks, point)
            or lettered_unsaid(text, point)
            or _switched_and_set(toks, folded, point, value)
            or _number_marked(toks, folded, point, value) or _zero_of(toks, folded)
            or _zero_of_an_instrument(toks, point, value)
            or _choice_or_switch(toks, point, value, profiles)
            or _on_a_choice(toks, point, value, profiles)
            or _marks(text, folded, point.unit, own, _choice_words(point))
            or _in_a_time(folded)
            or _chinese(folded, own, point)
            or _units(text, toks, own, point) or _a_change_unsaid(text, toks, point)
            or _role_unsaid(text, point, profiles)
            or _explained(text, toks, point, profiles, value)
            or _by_its_device_alone(toks, point, profiles)
            or _a_shared_character(text, toks, profiles)
            or _opposite(toks, point)
            or _which(text, toks, point, profiles, value)
            or unsaid_part(text, toks, point, profiles) or switchgear(text, toks, point)
            or _numbers_in_a_row(toks, point, profiles)
            or _a_thing_for_its_value(toks, point, value, profiles)
            or _value(toks, own, point, value, text,
                      _initials(toks, profiles.by_id[point.id], profiles)
                      if profiles is not None and point.id in profiles.by_id else set()))


def _a_shared_character(text: str, toks: list[Token], profiles: Profiles | None
                        ) -> Doubt | None:
    """ "池设定改成30": a thing said only by one Chinese character that several kinds of
    thing share (池: a pool, a reservoir, a basin), with no quantity or unit said: which
    point is not said (review atk59)."""
    if profiles is None or not is_chinese(text):
        return None
    found = terms(text, toks, profiles)
    if any(t.unit or t.kinds & {"quantity", "unit"} for t in found):
        return None
    things = [t for t in found if "thing" in t.kinds]
    if things and all(lone_character(t, toks[t.index])
                      and sum(c.startswith("thing.") for c in t.concepts) > 1 for t in things):
        return Doubt("which", tuple(t.shown for t in things))
    return None


def _by_its_device_alone(toks: list[Token], point: Point,
                         profiles: Profiles | None) -> Doubt | None:
    """A write that names its point by the point's device and nothing of its own name: "set
    irrigation to 3 minutes" of a "Mist interval" on device "irrigation" (its unit, minutes,
    is said of every point in min there is): which point of the device is not said."""
    if profiles is None or point.id not in profiles.by_id or any(t.zh for t in toks):
        return None
    unit = _spellings(point.unit)
    said = [t for t in content(toks) if t.number is None and not t.unit and not t.is_id
            and t.raw not in WRITE_VERBS | ON_WORDS | OFF_WORDS | unit and t.text not in unit]
    device = {x.text for x in tokens(point.device.replace("_", " "))}
    names = profiles.by_id[point.id].names
    if said and all(t.text in device for t in said) and not any(t.text in names for t in said):
        return Doubt("which", tuple(t.shown for t in said))
    return None


#: what says a run of things numbered from one to another ("pumps 1 to 3")
_THROUGH = frozenset(("to", "through", "thru", "till", "until"))
#: Chinese words of a change in a direction, which a number after says by how much: 转速快100
#: (100 faster), 温度设定热10度
_ZH_DIRECTION = "快慢热冷"
#: what a number said before makes a change by it ("10 degrees warmer", "100 rpm faster")
_COMPARATIVES = frozenset("""
    warmer colder cooler hotter faster slower higher lower more less quicker bigger smaller
""".split())


def _plus_as_a_change(toks: list[Token], point: Point) -> Doubt | None:
    """ "to plus 12": a sign said of a value, which says something only of a point
    that can go below zero (a cold room's setpoint), and with no verb of change; of any other
    ("set the fermenter setpoint to plus 1", a 0-25 °C point), or with such a verb ("nudge
    the glycol setpoint to plus 1"), it is a change by that much (reviews atk58, atk58b)."""
    plus = next((i for i, t in enumerate(toks)
                 if t.number is not None and t.raw.startswith("plus ")), None)
    if plus is None:
        return None
    own = _Own.of(point).raws  # (the "speed" of a "Pump 1 speed" is no verb)
    changing = any(t.raw in _RELATIVE | _UP_VERBS | _TO_VERBS | RELATIVE_VERBS | {"adjust"}
                   and t.raw not in own for t in toks[:plus])  # ("adjust … to plus 1": by
    # one, as often as to it: review atk58c)
    if point.min is not None and point.min < 0 and not changing:
        return None
    return Doubt("relative", (toks[plus].raw,))


def _by_an_amount(toks: list[Token], folded: str) -> Doubt | None:
    """A number said as a change: "knock pump 1 back 100 rpm" (not "back to 100"), "10
    degrees warmer", 快100, 开大10%."""
    for i, t in enumerate(toks[:-1]):
        if t.raw == "back" and toks[i + 1].number is not None:
            return Doubt("relative", (f"{t.raw} {toks[i + 1].raw}",))
        if t.number is not None and not t.ordinal:
            # (right after it, or after its unit: "10 degrees warmer"; said in English; never
            # an ordinal: "stop the third cooler fan" is a fan)
            after = [x for x in toks[i + 1:i + 3] if not x.zh]
            if after and (after[0].raw in _COMPARATIVES or (
                    len(after) > 1 and after[0].unit and after[1].raw in _COMPARATIVES)):
                return Doubt("relative", (" ".join([t.raw, *(x.raw for x in after)]),))
    digits = "\\d零〇一二两三四五六七八九十百"
    found = re.search(rf"(?:[{_ZH_DIRECTION}]|开大|关小|开小|关大|调大|调小|加大|减小)\s*个?\s*"
                      rf"(?=[{digits}]+(?![{digits}号#]))", folded)
    if found and not re.search(r"[到至为成]\s*$", folded[:found.start()]):
        return Doubt("relative", (folded[found.start():found.end() + 3],))
    return None


def _switched_and_set(toks: list[Token], folded: str, point: Point,
                      value: Any) -> Doubt | None:
    """A thing started or stopped for a time ("start pump 3 for 10 minutes", 启动3号泵10分钟):
    a run asked for, with how long, which is no value of a setting (its on-time in minutes
    may take the number, and the pump would not start)."""
    if point.kind not in ("int", "float"):
        return None
    started = any(t.raw in _STARTING | _SWITCH_WORDS for t in toks) or \
        any(w in folded for w in _STARTING_ZH)
    timed = any(t.raw == "for" and i + 1 < len(toks) and toks[i + 1].number is not None
                for i, t in enumerate(toks)) or re.search(r"\d\s*(?:分钟|小时|秒)", folded)
    if started and timed:
        return Doubt("when", ("for",))
    numbered = _a_thing_numbered(toks, folded, value)
    if numbered is not None:
        return Doubt("other_thing", (numbered,))
    return _a_run_for_a_time(toks, folded, point)


def _a_thing_numbered(toks: list[Token], folded: str, value: Any) -> str | None:
    """ "start hammermill 2 (please)", "start heater output no 2", "start the number 3 fan":
    with a thing started or stopped, the number the value was taken from numbers a thing,
    whatever the plant's names write (HM2_RUN); it is no speed of 2 % to set. Said last after
    a word ("run fan speed 60") it may be either, and is refused too: "at"/"to" says a value.
    (atk33: a setting's word before it had been let through, "start heater output 2".)"""
    if isinstance(value, bool) or not any(t.raw in _STARTING_ANY for t in toks) or \
            any(t.raw in _SETTING_WORDS for t in toks):
        return None
    marked = _NUMBERED.search(folded)
    if marked is not None and _number_is(_marked(marked), value):
        return marked.group(0)  # (the tokens drop "no", "number", "#")
    said = [t for t in toks if t.raw not in _TRAILING]
    while said and said[-1].raw in _STARTING_ANY:
        said = said[:-1]  # "heater output 2 start": the verb said last
    last = said[-1] if said else None
    if last is None or last.number is None or last.number != value or last.ordinal or \
            len(said) < 2:
        return None
    before = said[-2]
    if before.is_number or before.raw in _VALUE_BEFORE or before.unit or \
            before.raw in UNIT_WORDS or (before.text in QUANTITIES and any(
                t.is_number for t in said[:-2])):
        return None  # ("run pump 2 speed 50": pump 2 is numbered, 50 is its speed)
    return f"{before.raw} {last.raw}"


def _number_marked(toks: list[Token], folded: str, point: Point, value: Any) -> Doubt | None:
    """The value taken from a number marked as a thing's ("control valve opening #3",
    调节阀开度#3, "heater no. 2"), said nowhere else, of a point in a unit: a thing was
    numbered, no value given (review atk73: the tokens drop the mark, and 3 % was written).
    Not of a number that is what the point holds, a preset or a tap position ("set the mixer
    preset to #3", "set the tap position number 9": review atk56), nor after "to"."""
    if isinstance(value, bool) or not point.unit:
        return None
    marked = [m for m in _NUMBERED.finditer(folded) if _number_is(_marked(m), value)
              and not re.search(r"(?:\bto|\bat|[到为成至])\s*$", folded[:m.start()])]
    said = sum(1 for t in toks if (t.number is not None and not isinstance(t.number, bool)
                                   and _number_is(str(t.number), value))
               or (t.number is None and t.raw.isdigit() and _number_is(t.raw, value)))
    # (the 2 of "NO2", a formula's now, is said as much as the value after "to")
    return Doubt("other_thing", (marked[0].group(0),)) if marked and said <= len(marked) \
        else None


def _marked(found: re.Match[str]) -> str:
    """The number a `_NUMBERED` match marks."""
    return next(g for g in found.groups() if g is not None)


def _number_is(written: str, value: Any) -> bool:
    try:
        return float(_NUMBER_WORDS.get(written, written)) == float(value)
    except (TypeError, ValueError):
        return False


#: a number marked as one that numbers a thing ("number 2", "no. 2", "#2")
_NUMBERED = re.compile(r"(?:\bnumber\s*|\b(?:num|no|nr|n°)\.?\s*|#\s*)(\d+|one|two|three|four|"
                       r"five|six|seven|eight|nine|ten|eleven|twelve)\b|(\d+)\s*#|第\s*(\d+)")
# (after the number too, "3#", and 第3: review atk74c)
# (glued too, "No3", "Nº2" (NFKC: "no2"), as the tokens drop the mark: review atk74; "set
# the NO2 alarm limit to 2" keeps its "no" and "2" as words, and its value is said apart)
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
#: the words of a time a rate is said per ("an hour", "per minute")
_TIME_ONLY = frozenset("per a an hour hours h hr hrs minute minutes min mins second seconds s "
                       "sec secs day days shift".split())
#: verbs that start or stop a thing, switch it on or off ("switch on heater output 2")
_STARTING_ANY = frozenset("start starts started run runs stop stops stopped switch turn "
                          "enable disable energise energize activate deenergise "
                          "deenergize open close shut".split())  # ("open valve 3" of a "Vanne 3
# voies" position: no 3 %, review atk50)
#: words said after a command that end nothing ("start hammermill 2 please")
_TRAILING = frozenset("please pls plz now thanks thank thx ty you cheers ok okay for me kindly "
                      "mate".split())


_ENERGISING = frozenset("energise energize activate".split())
#: units of a point that holds a time
_TIME_UNITS = frozenset("s sec secs second seconds min mins minute minutes h hr hrs hour hours "
                        "ms 秒 分 分钟 小时".split())
#: words after a number that make it a time ("10 min", "十分钟": min)
_DURATION_WORDS = frozenset("s sec secs second seconds min mins minute minutes h hr hrs hour "
                            "hours".split())
#: words that say a time is set, not run: "set pump 1 run time to 10 min", "defrost timer 20 min"
_SETTING_WORDS = frozenset("set sets setting setpoint sp time times timer duration period length "
                           "delay interval to at = change adjust make increase decrease raise "
                           "lower reduce extend shorten".split())
_SETTING_ZH = ("时间", "时长", "设定", "定时", "延时")


def _a_run_for_a_time(toks: list[Token], folded: str, point: Point) -> Doubt | None:
    """A duration said to a thing with no word of a setting, and with a word of running it
    ("start pump 1 10 min", "zone 3 on 15 min"), in Chinese (3区灌溉15分钟), or with an
    action before the thing ("irrigate zone 4 15 minutes"): a run asked for, for that long,
    which writing the on-time would not start (atk20 DUR2). "#1 retort hold 45 minutes",
    "cabin spacing twelve seconds" name a setting."""
    if (point.unit or "").casefold() not in _TIME_UNITS:
        return None
    duration = next((toks[i + 1].shown for i, t in enumerate(toks[:-1])
                     if t.number is not None and toks[i + 1].raw in _DURATION_WORDS), None)
    if duration is None:
        return None
    if any(t.raw in _SETTING_WORDS or t.text in _SETTING_WORDS for t in toks) or \
            any(w in folded for w in _SETTING_ZH):
        return None
    words = [t for t in toks if t.raw not in _FILLERS_FIRST and t.raw not in ("the", "a", "an")]
    run = any(t.raw in _STARTING | _SWITCH_WORDS | _ENERGISING for t in toks) or \
        any(t.zh for t in toks) or (  # (a Chinese setting says 时间, 设为: see above)
            len(words) >= 4 and words[0].number is None and words[1].number is None and
            words[2].is_id and words[3].number is not None)  # "irrigate zone 4 15 minutes"
    return Doubt("when", (duration,)) if run else None


#: the verbs of starting or stopping a thing, which no number is the value of
_STARTING = frozenset("start starts started run runs stop stops stopped".split())
_STARTING_ZH = ("启动", "起动", "停止", "停机", "开机", "关机")


def _choice_or_switch(toks: list[Token], point: Point, value: Any,
                      profiles: Profiles | None) -> Doubt | None:
    """ "turn off kiln 1 hold" of a kiln mode whose choices hold "off", where "Kiln 1 hold" is
    a switch of its own whose every word is said: on/off of the switch, or the mode's "off"?"""
    if profiles is None or not point.choices or str(value).casefold() not in _SWITCH_WORDS:
        return None
    said = {t.text for t in toks}
    mine = {t.text for t in tokens(point.name) if not t.is_id}
    for other in profiles.all:
        o = other.point
        if o is not point and o.writable and o.kind == "bool" and \
                (words := {t.text for t in tokens(o.name) if not t.is_id}) and words <= said \
                and not (words < mine <= said):
            # (not "set snow gun 4 mode to off" of a switch named "Snow gun 4": the mode's
            # whole name is said, which holds the switch's — atk28)
            return Doubt("which", (o.name,))
    return None


def _on_a_choice(toks: list[Token], point: Point, value: Any,
                 profiles: Profiles | None) -> Doubt | None:
    """ "put heat pump 2 on cool": "on" then a choice of a mode is the mode, not "switched on"
    (the heat pump had been switched on); a switch is not turned on by it."""
    if profiles is None or point.kind != "bool" or value is not True:
        return None
    mine = _name_words(point)
    for i, t in enumerate(toks):
        if t.raw != "on" or t.zh or i == 0 or (
                toks[i - 1].raw in ON_VERBS and toks[i - 1].raw != "put"
                and not any(x.raw in mine for x in toks[:i])):
            continue  # "turn on pump 2": the particle of the verb before the thing is said
        # (and "heat pump 2 switch on cool", "turn heat pump 2 on to cool": atk28)
        rest = [x.raw for x in toks[i + 1:] if x.raw not in _BEFORE_A_CHOICE]
        for other in profiles.all:
            o = other.point
            if o is point or not o.writable or not o.choices or not _name_words(o) & mine:
                continue  # (a mode of its own thing: not the "bin 3" a conveyor is sent to)
            for _, spelled in spellings(o):
                words = [x.raw for x in content(tokens(spelled))]  # ("cool", not "heat")
                if words and rest[:len(words)] == words and not set(words) & _SWITCH_WORDS \
                        and not set(words) <= mine:  # ("on bin 3" of the "Bin 3 fan": where)
                    return Doubt("several", ("on", spelled))
    return None


#: what may stand between "on" and a choice said after it
_BEFORE_A_CHOICE = frozenset(("a", "an", "the", "to", "in", "into", "at"))


def _name_words(point: Point) -> set[str]:
    return {t.raw for t in content(tokens(point.name))}


def _zero_of(toks: list[Token], folded: str) -> Doubt | None:
    """ "pump 2 zero speed", 2号线零流量: a state reported (no speed, no flow), not a value to
    set."""
    for i, t in enumerate(toks[:-1]):
        zero = t.raw in ("zero", "no") or (t.raw == "0" and not t.ordinal)
        if zero and (toks[i + 1].text in QUANTITIES or toks[i + 1].raw == "load") and not (
                i > 0 and toks[i - 1].raw in _VALUE_BEFORE) and not toks[i + 1].unit:
            # (not "set boiler 1 frequency 0 Hz": a value with its unit, which the hypothesis
            # tests found read as "zero frequency", a state)
            # ("pump 2 0 speed", "generator 1 zero load": atk20 ZERO3)
            return Doubt("question", (f"{t.raw} {toks[i + 1].raw}",))
    found = re.search(r"(?<![为到成至])零(?:流量|压力|转速|速度|温度|液位|开度|频率|负荷|功率)",
                      folded)
    if found:
        return Doubt("question", (found.group(0),))
    first = next((t for t in toks if t.raw not in _FILLERS_FIRST), None)
    instrument = next((t.shown for t in toks if t.raw in _INSTRUMENTS), None)
    if first is not None and first.raw in _TARING and instrument is not None:
        # "zero the filler 2 load cell": a tare of the instrument, not 0 written to what it
        # weighs (atk20 ZEROCAL)
        return Doubt("other_thing", (f"{first.raw} {instrument}",))
    stopped = re.search(r"停止(?:关闭|打开|开启|启动|运行|加热|制冷|冷却|关|开)", folded)
    if stopped:
        # 停止关闭3号阀: "stop closing valve 3" halts its closing; it does not close it (atk20
        # STOPZ)
        return Doubt("several", (stopped.group(0),))
    return None


def _zero_of_an_instrument(toks: list[Token], point: Point, value: Any) -> Doubt | None:
    """0 said to an instrument the point's names do not name ("set filler 2 load cell to
    zero" of the filler's target weight): a tare of the instrument (atk23)."""
    if value != 0 or isinstance(value, bool):
        return None
    own = {t.raw for n in (point.name, *point.aliases) for t in tokens(n)}
    said = next((t.shown for t in toks if t.raw in _INSTRUMENTS and t.raw not in own), None)
    return Doubt("other_thing", (said,)) if said is not None else None


#: verbs of setting an instrument's zero, and the instruments they are said of
_TARING = frozenset("zero rezero tare calibrate".split())
_INSTRUMENTS = frozenset("cell cells scale scales weigher weighers transmitter transmitters "
                         "sensor sensors gauge gauges probe probes meter meters analyser "
                         "analyzer".split())


#: units whose time is in their letters, not after a slash ("rpm" is revolutions per minute)
_PER_IN_LETTERS = {"rpm": "min", "rps": "s", "spm": "min", "bpm": "min", "gpm": "min",
                   "lpm": "min", "slpm": "min", "slm": "min", "sccm": "min", "cfm": "min",
                   "scfm": "min", "acfm": "min", "gph": "h", "lph": "h", "tph": "h", "tpd": "d",
                   "mph": "h", "kph": "h", "kmh": "h", "bpd": "d", "bopd": "d", "bwpd": "d",
                   "bfpd": "d", "mmscfd": "d", "mscfd": "d", "cpm": "min", "upm": "min",
                   "ppmin": "min", "fpm": "min", "sfpm": "min", "ipm": "min", "mpm": "min",
                   "cph": "h", "pph": "h", "bph": "h", "uph": "h", "cmh": "h", "scmh": "h",
                   "lps": "s", "mps": "s"}

_PER_IN_LETTERS_SAID = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?\s*(" + "|".join(_PER_IN_LETTERS) +
                                  r")\b", re.IGNORECASE)


def _per(unit: str) -> str | None:
    """The time a rate is per ("h" of "t/h", "min" of "kg/min" and of "rpm"), None if no known
    one (a unit with no time: "kg", "m³", "kg/batch")."""
    if "/" not in unit:
        return _PER_IN_LETTERS.get(unit.strip().casefold())
    return _time_of(unit.rsplit("/", 1)[-1])


def _a_thing_for_its_value(toks: list[Token], point: Point, value: Any,
                           profiles: Profiles | None) -> Doubt | None:
    """ "drop the mixer speed to mixer 1", "lower the oven temp to oven one": the value is a
    thing's number, said right after its word after "to", which a measure (a point with a
    unit) is never set to; "to mixer 1's" is that mixer's value (reviews atk72, atk72b). Not
    of its own number ("set pump 2 speed to 1500": "pump 2" names it, the value comes after)."""
    if profiles is None or not point.unit or not isinstance(value, (int, float)) or \
            isinstance(value, bool):
        return None
    own = profiles.by_id[point.id].pairs if point.id in profiles.by_id else frozenset()
    things = {w for w, _ in profiles.pairs}
    for i, t in enumerate(toks[2:], 2):
        before = toks[i - 1]
        # (after "to" only, or "to the", "to that of": "sub2 valve 100", "filler 4000 an hour"
        # give a thing its value)
        lead = [x.raw for x in toks[max(0, i - 5):i - 1]]
        while lead and lead[-1] in ("the", "that", "of", "those"):
            lead.pop()
        if not lead or lead[-1] not in ("to", "like", "as", "match", "matching", "at"):
            continue
        if t.number is not None and float(t.number) == float(value) and not before.zh and \
                (before.text in things or any(
                    s.kind == "thing" for s in profiles.lexicon.concepts(before.raw))) and \
                (before.text, t.text) not in own and (
                    not unit_after(toks, i) or toks[i + 1].raw == "s"):  # ("kiln 1's")
            return Doubt("which", (f"{before.raw} {t.raw}",))
    return None


def _numbers_in_a_row(toks: list[Token], point: Point,
                      profiles: Profiles | None = None) -> Doubt | None:
    """ "start pump 1 2", "open valve 1 & 2": a number said right after a thing's number,
    with no unit, "to", word or comma between, lists a second thing; it is no value for the
    first (a speed of 2 rpm). ("kiln one, sixty two and a half": a comma, then the value.)"""
    if point.kind != "bool" and profiles is not None:
        # "start pump 1, 2", "bring pump 1 2 online": the second a pump the plant has
        pairs = profiles.pairs
        switched = any(t.raw in _SWITCH_WORDS - {"on", "off"} for t in toks)
        for i, t in enumerate(toks[2:], 2):
            if t.is_number and toks[i - 1].is_number and \
                    (toks[i - 2].text, t.text) in pairs and not unit_after(toks, i):
                # (not "tank T-3", "tank M 1": a letter and a number, one tag)
                return Doubt("several", (toks[i - 1].raw, t.raw))
            if switched and i > 2 and t.is_number and toks[i - 1].raw in _THROUGH and \
                    toks[i - 2].is_id and (toks[i - 3].text, t.text) in pairs:
                return Doubt("several", (toks[i - 2].raw, t.raw))  # "start pump 1 to 2"
    if point.kind == "bool" or not any(
            t.raw in _SWITCH_WORDS - {"on", "off"} or t.text in _SWITCH_WORDS - {"on", "off"}
            or t.raw in _BRINGING or (t.raw in ("on", "off") and (
                (i > 0 and toks[i - 1].raw in ("turn", "switch", "kick")) or
                all(x.raw in _AFTER_ON_OFF for x in toks[i + 1:])))
            for i, t in enumerate(toks)):
        return None  # ("HP pump 1 1450", "cure time on press 3 forty minutes": no on/off
        # said, a value of the thing)
    for i, t in enumerate(toks[2:], 2):
        before = toks[i - 1]
        # ("open valve 1, 2": after a comma too, when an on/off is said and no unit)
        if t.is_number and before.is_number and before.is_id and not toks[i - 2].is_number \
                and not unit_after(toks, i):
            return Doubt("several", (before.raw, t.raw))
    return None


#: what may follow an on or off said last ("pump 1 2 on please")
_AFTER_ON_OFF = frozenset("please pls now thanks thank you thx again right away".split())
#: verbs that switch a thing on or off without an on/off word ("energise pump 1", "bring pump
#: 1 online")
_BRINGING = frozenset("energise energize deenergise deenergize online offline kick".split())


def doubt_raw(text: str, device: str = "", values: tuple[Any, ...] = ()) -> Doubt | None:
    """For a raw register write ("set holding register 40011 on plc1 to 99"), whose numbers
    its own rule reads: None when the words ask for it now, plainly, once; else why not."""
    hidden = _hidden(text, _folded(text))
    if hidden:
        return hidden
    if device:  # "on plc1", "on the device plc1": where, not a value
        text = re.sub(rf"\b(?:on|at|of)\s+(?:the\s+)?(?:device\s+)?{re.escape(device)}\b", " ",
                      text, flags=re.IGNORECASE)
    toks = tokens(text)
    said = _pasted(_folded(text), toks) or _raw_shape(text) or \
        _no_change_asked(text, _NOBODY) or _raw_words(text, toks)
    if said:
        return said
    switch = {t.text for t in toks} & (_SWITCH_WORDS | _LEVELS)
    on = switch & (_ON | {"high"})
    if on and switch - on:
        return Doubt("several", tuple(sorted(switch)))  # "turn coil 2 on device plc1 off"
    if values and all(isinstance(v, bool) for v in values) and switch and \
            any(v != bool(on) for v in values):
        return Doubt("not_stated", tuple(sorted(switch)))  # the words say the other state
    folded = unicodedata.normalize("NFKC", text).casefold()
    units = [t.shown for t in toks if t.unit] + [
        t.raw for i, t in enumerate(toks) if i and toks[i - 1].number is not None
        and len(t.raw) > 1 and unit_symbol(t.raw) is not None]
    if units:
        return Doubt("unit", tuple(units))  # a register holds a number, not a unit
    return (_english_words(toks, _NOBODY, None) or _marks(text, folded, None, _NOBODY)
            or _chinese(folded, _NOBODY, None))


#: the words a raw register write is said in besides its numbers, table, type and device
#: ("please set holding register 40011 on plc1 to 1200 as a uint16 now")
_RAW_WORDS = frozenset("""
    set write put force change turn switch to on off true false high low as a an the address
    addr register registers holding input inputs coil coils discrete discretes hr ir di at
    value bit word device unit plc of into in please kindly now pls plz go ahead modbus raw
    int int16 uint uint16 int32 uint32 float float32 float64 double real lreal dint udint
    short long dword bool string signed unsigned decimal
""".split())


#: number words that are also times ("... to 1200 in a second": later)
_TIMES = frozenset(("second", "seconds"))


#: the polite words a raw write may be said with, where they may be said
_RAW_POLITE = re.compile(r"^\s*(?:(?:could|would|can)\s+you\s+)|[\s,]*(?:thanks|thank\s+you|thx|"
                         r"for\s+me)[\s.!]*$", re.IGNORECASE)


def _raw_shape(text: str) -> Doubt | None:
    """A raw write of several addresses ("40011-40012", "coil 2-5"), for later ("in 5"), or
    as two types ("as a float as an int")."""
    span = re.search(r"\d\s*(?:[-–~&,]|\.\.)\s*\d|\d\s+(?:through|thru|and)\s+\d"
                     r"|\b(?:coils?|registers?|inputs?|address(?:es)?)\s+\d+\s+\d"
                     r"|\b(?:on|off|true|false|high|low)\s*[,;]?\s*\d", text, re.IGNORECASE)
    if span:
        return Doubt("several", (span.group(0),))
    later = re.search(r"\b(?:in|after|within)\s+\d", text, re.IGNORECASE)
    if later:
        return Doubt("when", (later.group(0),))
    if len(re.findall(r"\b(?:u?int(?:8|16|32|64)?|float(?:32|64)?|bool|string|double|real|"
                      r"lreal|short|long|u?dint|dword)\b", text, re.IGNORECASE)) > 1:
        return Doubt("several", ("as",))
    return None


def _raw_words(text: str, toks: list[Token]) -> Doubt | None:
    """Every word of a raw register write is one of its grammar's: "(done)", "earlier", "jk",
    确认 tell of a write, they do not ask for one."""
    if any(is_cjk(c) for c in text):
        return Doubt("unexplained", tuple(dict.fromkeys(c for c in text if is_cjk(c)))[:4])
    toks = tokens(_RAW_POLITE.sub(" ", text))
    odd = [t.shown for t in toks if _TIMES & set(t.raw.split()) or (
        t.number is None and not t.unreadable and t.raw not in _RAW_WORDS
        and t.text not in _RAW_WORDS
        and re.sub("['’]", "", t.raw).isalpha())]  # ("I've set ...": done; "we'll": later)
    return Doubt("unexplained", tuple(odd)) if odd else None


#: the lexicon's actions that ask for no change now, and what a write said with one is:
#: "show boiler 2 on", "确认2号锅炉停机" (confirm it is stopped), "ack bilge pump off" (an event
#: acknowledged), "calibrate ... to 40", "暂缓启动" (hold off starting), "预约启动" (book a start)
_NO_CHANGE = {"action.read": "question", "action.acknowledge": "question",
              "action.calibrate": "question", "action.pause": "when", "action.schedule": "when"}
#: forms of those that also say "keep" or "fetch", which a write may: "hold the speed at 900",
#: "保持2号阀打开", "get pump 2 running"
_KEPT_FORMS = frozenset(("hold", "保持", "get", "give me"))


#: the words of an emergency a switch may be named by, and a command may say ("Comando
#: emergencia bomba 6", "Pump 6 emergency command"), unaccented
_EMERGENCY = frozenset("emergency emergencia emergenza urgence notaus nothalt estop".split())
_EMERGENCY_ZH = ("紧急", "急停")
_STOPPING_SAID = frozenset("stop stopped shutdown shut off halt trip".split())
_STOPPED_ALREADY = frozenset("estop notaus nothalt".split())  # (an emergency stop, one word)


def _emergency_switched(toks: list[Token], folded: str, point: Point) -> Doubt | None:
    """ "emergency stop pump 6" of a "Comando emergencia bomba 6": whether an emergency is
    what the switch sets on or clears is not said by stopping it; no way is guessed (review
    atk52: it wrote False, and base did so of an English "Pump 6 emergency command")."""
    if point.kind != "bool":
        return None
    # (an emergency stop said: not "start the emergency lube oil pump", a pump of its own)
    said = [f"{t.shown} {after.shown}" for t, after in pairwise(toks)
            if unaccented(t.raw) in _EMERGENCY and after.raw in _STOPPING_SAID] + \
        [t.shown for t in toks[-1:] if unaccented(t.raw) in _EMERGENCY and any(
            x.raw in _STOPPING_SAID for x in toks)] + \
        [t.shown for t in toks if unaccented(t.raw).replace("-", "") in _STOPPED_ALREADY] + \
        [w for w in ("急停", "紧急停") if w in folded]
    named = any(unaccented(t.raw).replace("-", "") in _EMERGENCY
                for label in (point.name, *point.aliases) for t in tokens(label)) or any(
        w in n for n in point.names.values() for w in _EMERGENCY_ZH)
    return Doubt("not_stated", tuple(said[:1])) if said and named else None


def _no_change_asked(text: str, own: _Own, chosen: tuple[str, ...] = ()) -> Doubt | None:
    """A word that asks to see, acknowledge, calibrate, hold off or plan, which is not a word
    of the point's own names (an "Alarm acknowledge" coil is acknowledged by writing it), nor
    of the choice written (定时, "schedule", of a load control mode: blind batch 45)."""
    for m in lexicon().concepts_of_text(text):
        problem = _NO_CHANGE.get(m.concept.id)
        if problem is None or m.form in _KEPT_FORMS:
            continue
        said = text[m.start:m.end]
        words = [t for t in tokens(said) if t.number is None]
        if words and all(t.text in own.texts or t.raw in own.named for t in words):
            continue
        folded = said.casefold()
        if any(folded in label if is_cjk(folded[0]) else
               re.search(rf"(?<!\w){re.escape(folded)}(?!\w)", label)
               for label in (*own.labels, *chosen)):
            continue  # (as a word: the "ack" of "backwash" is none)
        return Doubt(problem, (said,))
    return None


#: marks of text pasted or written about a command, not one: a label and its value
#: ("makeup valve: OPEN", "补水阀：开"), a bracketed state ("[open]", "(on)"), a checklist,
#: comment or bullet opening ("- [ ]", "✓", "# ", "// ")
_PASTED_OPENING = re.compile(r"^\s*(?:[-*•+]\s|[a-z0-9][.)]\s|#\s|//|\[|-\s*\[)",
                             re.IGNORECASE)
#: ...and of a label and its value, marked up: which a verb that sets no state may still
#: carry ("set engine room fan speed: 60", "set jacket water to 80 (°C)")
_PASTED_MARKS = frozenset(":：꞉[]()（）【】〔〕［］｛｝{}=*`…—―⸺⸻\t\n\r\u2028\u2029")  # (< > are maths)
_LINE_BREAKS = frozenset("\n\r\u2028\u2029")
#: symbols that are units, not marks
_UNIT_SYMBOLS = frozenset("°℃℉%‰")
#: verbs of a write that name no state (a state word after a label is what a screen shows)
_SETTING_VERBS = frozenset("set change adjust put turn switch raise lower increase "
                           "decrease reduce bump boost write".split())


def _pasted(text: str, toks: list[Token]) -> Doubt | None:
    if _PASTED_OPENING.match(text):
        return Doubt("question", (text.strip()[:2],))
    wrapped = re.fullmatch(r"\s*([(\[{/:|~<'-]).*([)\]}/:|~>'-])\s*", text, re.DOTALL)
    if wrapped:
        return Doubt("question", wrapped.groups())  # "(set fan speed to 60)", "/start it/"
    clock = re.sub(r"\d{1,2}:\d{2}", "", text.strip()).replace("...", "…")  # (a time: when)
    # "PUMP 2 SPEED: 100", "makeup valve: OPEN": a label given a number or a state, with no
    # verb that sets it, is what a screen shows ("set fan speed: 60" asks for the write)
    marks = [c for c in clock if c in _PASTED_MARKS]
    lines = [c for c in clock if c in _LINE_BREAKS] or \
        (["\t"] if clock.count("\t") > 1 else [])  # (lines, a row of cells: pasted, whatever verb)
    if lines or (marks and not any(t.raw in _SETTING_VERBS for t in toks)):
        marks = lines or marks
        return Doubt("question", (marks[0].replace("\t", "\\t").replace("\n", "\\n")
                                  .replace("\r", "\\r").replace("\u2028", "\\u2028")
                                  .replace("\u2029", "\\u2029"),))
    odd = re.search(r"[(（]\s*[-+]?\d[\d.,]*\s*[)）]|[—―⸺⸻]\s*\d", text)
    if odd:
        return Doubt("unreadable", (odd.group(0),))  # "(2)": minus two in a ledger; "— 2"
    run = re.search(r"([^\w\s.!?。])\1\1|([%‰°])\2|__", text)
    if run:  # ("!!!", "...", "。。。": a sentence said loudly or trailing off)
        return Doubt("question", (run.group(0),))  # "60%%", "60 ___": no value said once
    symbols = [c for c in text if unicodedata.category(c) == "So" and c not in _UNIT_SYMBOLS]
    if symbols:
        return Doubt("question", (symbols[0],))  # "✓ bilge pump on", "bilge pump on 🤔"
    return None


#: states a slash or hyphen may join: "on/off", "open/closed", "up/down" name both
_STATE_WORDS = "on|off|open|opened|closed?|shut|up|down|start|stop|run|auto|manual"
_APART = r"(?<![^\W_])", r"(?![^\W_])"  # a word's ends, "_" being none of it ("on_off")
_STATE_PAIR = re.compile(
    rf"{_APART[0]}({_STATE_WORDS}){_APART[1]}"
    r"((?:\s|_|[^\w\s]){0,9}?(?:\b(?:and|or|n|to)\b(?:\s|_|[^\w\s]){1,9}?)?)"
    rf"{_APART[0]}({_STATE_WORDS}){_APART[1]}")
#: words that may follow a state pair said with a space alone, which still names both
#: ("bilge pump on off please"): what follows it otherwise is a place ("pump off on the enrober")
_AFTER_PAIR = frozenset("please pls plz now thanks thank you thx immediately again then ok okay "
                        "right quickly asap quick".split())
#: the other state of each, for a pair said with a space alone ("bilge pump on off"): only
#: opposites are a pair there ("shut off", "start up", "open up" are one verb)
_OPPOSITE = {"on": "off", "off": "on", "open": "closed", "opened": "closed", "closed": "open",
             "close": "open", "shut": "open", "up": "down", "down": "up", "start": "stop",
             "stop": "start", "run": "stop", "auto": "manual", "manual": "auto"}


#: states a report says a point is in ("valve's open"), and words that urge a command on
#: before "now" ("right, now open it")
_STATES = frozenset("open opened closed shut running stopped started tripped".split())
_URGES = frozenset("right ok okay and so then just please go".split())


#: verbs that hold a thing at a value ("hold zone 2 at 200", "keep the fan at 60")
_HOLDING = frozenset("hold keep maintain leave run".split())
#: a value's change, said with the amount ("speed change 0.5 rpm": by, or to, 0.5?)
_CHANGING = frozenset(("change", "changed"))
#: how a value moved, reported ("oven temperature drops 5 °C", "level rose to 80")
_MOVED = frozenset("drops dropped dropping fell falls falling rose rises rising risen climbed "
                   "climbs climbing jumped jumps".split())


#: a condition told of something ("the motor's hot"), last in its clause
_CONDITION_SAID = frozenset("""
    hot cold warm cool full empty dry wet dead down stuck jammed blocked choked plugged clogged
    frozen seized broken leaking overheating overflowing flooding tripped tripping smoking
    vibrating cavitating noisy burning
""".split())
_AFTER_CONDITION = frozenset("again now already up too".split())


def _reported(toks: list[Token], folded: str,
              named: AbstractSet[str] = frozenset()) -> Doubt | None:
    """What a state is, said, not asked: "valve's open", "fan's at 60", "boiler 2 now off",
    "on/off"; "补水阀开启的"."""
    for pair in _STATE_PAIR.finditer(folded):
        first, join, second = pair.groups()
        if first == second or re.fullmatch(r"(start|run)\s*-\s*up", pair.group(0)) or \
                (re.search(r"\bfrom\s+$", folded[:pair.start()]) and "to" in join.split()):
            continue  # "start-up": a time; "from on to off": a change asked for
        spaced = re.fullmatch(r"\s+(?:(?:and|or|n|to)\s+)?", join)
        after = re.findall(r"\w+", folded[pair.end():])
        if spaced and ((_OPPOSITE.get(first) != second and _OPPOSITE.get(second) != first)
                       or not set(after) <= _AFTER_PAIR):
            continue  # "shut off", "open up": one verb; "pump off on the enrober": a place
        return Doubt("several", (pair.group(0),))
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        stated = nxt.number is not None or nxt.raw in ON_WORDS or nxt.raw in OFF_WORDS or \
            nxt.raw in _STATES or nxt.raw in ("at", "still")
        state = ON_WORDS | OFF_WORDS | _STATES
        then = toks[i + 2].raw if i + 2 < len(toks) and nxt.raw == "to" else nxt.raw
        unasked = not any((x.raw in WRITE_VERBS or x.raw in STATE_VERBS)
                          and _standalone(x.raw, folded) for x in toks[:i])
        if t.raw in ("back", "again") and then in state and unasked:
            return Doubt("question", (f"{t.raw} {nxt.raw}",))  # "bilge pump back (to) on"
        if nxt.raw == "again" and t.raw in state and unasked:
            return Doubt("question", (f"{t.raw} again",))  # "boiler 2 off again": it is
        if t.raw.endswith(("'s", "’s")) and t.raw not in ("let's", "let’s") and (stated or (
                nxt.raw in _CONDITION_SAID and (i + 2 == len(toks) or toks[i + 2].after_break
                                                or toks[i + 2].raw in _AFTER_CONDITION))):
            # ("stop the cooling fan, the motor's hot": a state told, which the fan may be
            # there to mend; not "the boiler's hot water valve": review atk71)
            return Doubt("question", (f"{t.raw} {nxt.raw}",))
        if t.raw == "now" and stated and i and not t.after_break and \
                toks[i - 1].raw not in _URGES and not any(
                    x.raw in WRITE_VERBS and _standalone(x.raw, folded) for x in toks[:i]):
            # ("now start boiler 2", "right, now open it": a command, urged)
            return Doubt("question", (f"now {nxt.raw}",))
    said = set(re.findall(r"[^\W\d_]+", folded))
    told = bool(said & (WRITE_VERBS | STATE_VERBS | _HOLDING))
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        if t.raw in _CHANGING and nxt.number is not None:
            return Doubt("relative", (f"{t.raw} {nxt.raw}",))  # "kiln speed change 0.5 rpm"
        if told:
            continue
        if nxt.raw in ("full", "empty") and nxt.raw not in named and (
                t.number is not None or t.unit or (
                    t.raw == "percent" and i and toks[i - 1].number is not None)):
            return Doubt("question", (f"{t.raw} {nxt.raw}",))  # "tank level 20 % full": it is
            # (not "pump 2 full speed 1500 rpm", its own name: review atk55b)
        if t.raw in _MOVED and t.raw not in named and \
                any(x.number is not None for x in toks[i + 1:]):
            return Doubt("question", (t.raw,))  # "oven temperature drops 5 °C": it did
    if re.search(r"[\u4e00-\u9fff\w]\s*的(?:[\s哦哈啊呀吧呢，,。.!！]|谢谢|辛苦了|thanks|thx)*$",
                 folded):
        return Doubt("question", (folded.strip()[-3:],))  # 补水阀开启的: it is open
    return None



def _state_chosen(toks: list[Token], point: Point, value: Any) -> Doubt | None:
    """ "set analyser mode to offline" read as "switch ... off" (`normalize`): where the
    point takes the state said as a choice of its own, that choice, not another (its `off`
    had been written); and where it takes such a state as a choice, a state phrase it does
    not take ("off stream", beside `off` and `offline`) is no choice of it (atk32)."""
    mine = {unspaced(said): choice for choice, said in spellings(point)}
    phrased = set(mine) & _STATE_CHOICES
    for t in toks:
        if t.raw in ("on", "off") and t.written and t.written != t.raw:
            chosen = mine.get(unspaced(t.written))
            if (chosen is not None and value != chosen) or (chosen is None and phrased):
                return Doubt("not_stated", (t.written,))
            if chosen is not None and not _named_whole(toks, point):
                # "put line 2 online" of the "Line 2 analyser mode": line 2 is put online,
                # not its analyser (atk34)
                return Doubt("not_stated", (t.written,))
    return None


def _named_whole(toks: list[Token], point: Point) -> bool:
    """Whether every word of one of the point's names (but "mode") is said."""
    said = {t.text for t in toks} | {t.raw for t in toks}
    return any(all(t.text in said or t.raw in said or t.raw == "mode"
                   for t in tokens(label) if t.raw not in _ARTICLES_AND_OF)
               for label in (point.name, *point.aliases))


_ARTICLES_AND_OF = frozenset("the a an of".split())


#: the state phrases ("offline", "out of service") as a choice would write them
_STATE_CHOICES = frozenset(unspaced(" ".join(p)) for p in STATE_PHRASES)


def _standalone(word: str, folded: str) -> bool:
    """Whether the command says `word` as a word of its own, not only as the first part of
    a hyphenated one: the "make" of "make-up valve now open" asks nothing made."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", folded) is not None


def told_apart(found: list[Term], profile: Profile, profiles: Profiles) -> bool:
    """Whether a word said names this point and none of those named alike but for their
    numbers: "soak zone" of the "Reheat furnace zone 3" whose alias it is, where zones 1 and 2
    are the "preheat" and "heating" zones."""
    siblings = profiles.siblings(profile)
    # (a word of its names: not of a description, an id or a device, which may say what all
    # of them are and only one says: "drive", the VFD one is on; nor of its localized name
    # alone when a sibling has none: "输油泵" of transfer pump 1 only, where pump 2 is given no
    # Chinese name, says which pumps, not which one)
    localized = _localized_only(profile) if any(not o.point.names for o in siblings) \
        else frozenset()
    return any(t.word in profile.names and t.word not in localized
               and explained(t, profile, found) >= EXPLAINED
               and not any(explained(t, o, found) for o in siblings) for t in found)


def _localized_only(profile: Profile) -> frozenset[str]:
    """The words of a point's localized names that its own name and aliases do not say."""
    point = profile.point
    said = {t.text for n in point.names.values() for t in tokens(n)}
    own = {t.text for n in (point.name, *point.aliases) for t in tokens(n)}
    return frozenset(said - own)


def _opposite(toks: list[Token], point: Point) -> Doubt | None:
    """A point whose name says one of two opposites the command says only the other of: the
    heat enable for "turn on AHU 1 cool", the fast fill valve for "open the slow fill valve"."""
    pairs = opposed(point_poles(point), said_poles(toks, choice_words(point)))
    return Doubt("other_thing", opposite_words(toks, pairs)) if pairs else None


def _which(text: str, toks: list[Token], point: Point,
           profiles: Profiles | None, value: Any = None) -> Doubt | None:
    """A point of several named alike but for their numbers, and the command says none of its
    numbers ("set the HP pump to 1300" where there are HP pumps 1 and 2): which one is meant
    is no one's guess. A number said as the value ("to 1") numbers nothing, nor does the
    number written, unless it is said as one ("pump 2", "second"): in "给水泵转速设定2" and
    "feed pump speed setpoint of 2" the 2 is the speed, not pump 2."""
    if profiles is None or point.id not in profiles.by_id:
        return None
    profile = profiles.by_id[point.id]
    said = ids_said(toks, write=True, value=value, id_words=_Own.of(point).id_words)
    found = terms(text, toks, profiles)
    naming = tuple(t.shown for t in found if explained(t, profile, found) >= EXPLAINED)
    if profiles.siblings(profile) and not said & profile.ids and \
            not told_apart(found, profile, profiles):
        return Doubt("which", naming or tuple(t.shown for t in found[:1]))
    if naming and _peer(found, toks, profile, profiles, said):
        # "start the pump" where the pump-over pump and the glycol pump are both pumps; "set
        # the oven to 160" where the topcoat oven and three ED oven zones are ovens
        return Doubt("which", naming)
    if naming and _quantity_unsaid(found, toks, profile, profiles, value):
        return Doubt("which", naming)
    if naming and not said and _thing_unsaid(found, profile, profiles):
        return Doubt("which", naming)
    return None


def _thing_unsaid(found: list[Term], profile: Profile, profiles: Profiles) -> bool:
    """A value for a quantity said alone, with no thing nor anything else that tells points
    apart ("set the speed to 1.5"), where points of other things measure or set that quantity
    too (the check-in belts' speeds beside the sorter's speed setpoint, the one that can be
    written): which thing is not said, whatever can be written (blind batch 60)."""
    said = [t for t in found if not t.unit and "unit" not in t.kinds]
    quantities = [t for t in said if t.kinds == {"quantity"}]
    roles = [t for t in said if t.kinds == {"role"}]
    # (one quantity, and what says its setting: "set the speed setpoint to 1.5", of setpoints
    # of other things, review atk59c; "set the target moisture to 9" of the one moisture target
    # beside the readings is no question)
    if len(quantities) != 1 or len(quantities) + len(roles) != len(said):
        return False
    asked = {c for c in quantities[0].concepts if c.startswith("quantity.")}
    mine = profile.things
    if not asked or not mine:
        return False
    return any(other is not profile and asked & other.quantities and other.things
               and not other.things & mine and (not roles or other.role == profile.role)
               for other in profiles.all)


def _quantity_unsaid(found: list[Term], toks: list[Token], profile: Profile,
                     profiles: Profiles, value: Any) -> bool:
    """A number said to a thing, with no quantity or unit ("set room 1 to 16.5"), where another
    writable number of the same thing explains the words as well (room 1's temperature
    setpoint, and its fan speed in %): which one is meant is not said, whatever their ranges
    ("set boiler 1 to 80" is no firing rate because 80 bar is too much)."""
    point = profile.point
    if point.kind not in ("int", "float") or point.choices or not isinstance(value, int | float) \
            or any("quantity" in t.kinds or t.unit for t in found) or any(
                t.unit or t.text in QUANTITIES or unit_symbol(t.raw) for t in toks):
        return False  # ("把窑速调到3.6转": 转, revolutions, says a speed)
    strength = {id(t): explained(t, profile, found, phrases=False) for t in found}
    mine = [t for t in found if strength[id(t)] >= EXPLAINED]
    for other in profiles.all:
        o = other.point
        if other is profile or not o.writable or o.kind not in ("int", "float") or o.choices \
                or other.ids != profile.ids:
            continue
        if all(explained(t, other, found, phrases=False) >= strength[id(t)] for t in mine):
            return True
    return False


def _peer(found: list[Term], toks: list[Token], profile: Profile, profiles: Profiles,
          said: set[str]) -> bool:
    """Another writable point of the same kind and role that explains every word this one
    does as well as it does, where this one's name is not said whole: nothing said tells
    them apart."""
    strength = {id(t): explained(t, profile, found, phrases=False) for t in found}
    mine = [t for t in found if strength[id(t)] >= EXPLAINED]
    words = {t.text for t in toks if t.number is None} | {t.word for t in found}
    # (its name's words unsaid; none where one of its aliases is said whole: "start the
    # mixer" of a "Pan mixer" whose alias is "mixer", beside a "Mixer discharge gate")
    keys = (profile.key, *(tuple(t.text for t in content(tokens(alias)) if not t.is_id)
                           for alias in profile.point.aliases))
    unsaid = [set(key) - words - profile.ids for key in keys]
    extra = min(map(len, unsaid))
    poles = said_poles(toks)
    opened = any(t.raw in _OPENED or (t.zh and t.written in _ZH_OPENED) or (
        t.raw == "shut" and not any(x.raw in ("down", "off") for x in toks[i + 1:]))
        for i, t in enumerate(toks))
    # ("open pump 6": its valve, perhaps; "shut chiller 2 down" stops it)
    numbered = {(t.text, toks[i + 1].text) for i, t in enumerate(toks[:-1])
                if toks[i + 1].is_id and not t.is_id and toks[i + 1].text in said}
    for other in profiles.all:
        if other is profile or not other.point.writable or \
                other.point.kind != profile.point.kind or other.role != profile.role:
            continue
        # a point of another number, no number said: named alike, the siblings' question
        # (asked above); named otherwise ("GKB1 bed temp SP" beside "Germ box 2 bed
        # temperature setpoint"), asked here, where its words need only explain what this
        # one's do, not as well (that "temperature" is spelled out in one name tells
        # nothing of which box is meant: review atk64)
        apart = bool(profile.ids and other.ids and profile.ids != other.ids and not said)
        if apart and other in profiles.siblings(profile):
            continue
        if poles and opposed(other.poles, poles):
            continue  # the heat setpoint, of "set zone 1 cool setpoint"
        if said & profile.ids - other.ids or \
                (said and not said & other.ids and (other.ids or said & profile.ids)):
            continue  # "pump 2" is not pump 1, nor the firewater pump; "Z1" is not Z2
        if any((w, n) not in other.pairs and any(w == o for o, _ in other.pairs)
               for w, n in numbered):
            continue  # "AHU 1" is not AHU 2, though its alias "Fan 1" has a 1 (atk21 XLABEL)
        named_only = (words & profile.names) - other.names
        if named_only and not (apart and all(any(
                w in (t.word, t.raw) and explained(t, other, found, phrases=False) >= EXPLAINED
                for t in found) for w in named_only)):
            continue  # a word of its names said ("rinse" of the rinse valve, a verb too; but
            # "setpoint" is the other box's "SP" too)
        if any(in_its_unit(t, profile) and not in_its_unit(t, other) for t in found):
            continue  # "set kiln speed to 3.6 rpm": the kiln ID fan's speed is in %
        # (a point whose whole name is said is the one meant over those it is part of)
        # (as well as this one: any pump is a form of the "dosing pump" said, less well)
        others_unsaid = set(other.key) - words - other.ids
        if any(own < others_unsaid for own in unsaid):
            continue  # "set the kiln speed to 3.25": the kiln ID fan's is named less wholly
        if unsaid[0] <= _SWITCHING and not opened and \
                _a_thing_of_its_own(others_unsaid, profiles, profile):
            continue  # "fire up unit 2": the unit's start/stop command, not its cooler fan's
            # (a name of nothing but its thing and switching: "fire up emergency" of an
            # "Emergency cooler" beside an "Emergency flare" names neither: atk58; nor
            # "close generator 2" beside its breaker's close command: atk58b)
        if all(explained(t, other, found, phrases=False) >=
               (min(strength[id(t)], EXPLAINED) if apart else strength[id(t)]) for t in mine) \
                and (extra or not others_unsaid):
            return True
    return False


#: the verbs of what opens and closes (a valve, a breaker, a damper), no machine's start
_OPENED = frozenset("open close reopen opened closed".split())
#: ...and in Chinese, a breaker's ("合闸": close it; "分闸", "断开", "拉闸": open it — review atk58c)
_ZH_OPENED = frozenset(("合闸", "分闸", "断开", "合上", "拉闸", "打开", "关闭", "关上"))
#: the words a switch's name says besides its thing ("Unit 2 start/stop command")
_SWITCHING = ON_WORDS | OFF_WORDS | frozenset("run running command cmd start stop".split())


def _a_thing_of_its_own(words: AbstractSet[str], profiles: Profiles, beside: Profile) -> bool:
    """One of `words` names a thing that the point `beside` is not ("fan" and "cooler" of a
    "Unit 2 gas cooler fan run", beside a "Unit 2 start/stop command")."""
    return any(s.kind == "thing" and s.concept not in beside.concepts
               for word in words for s in profiles.lexicon.concepts(word))


def ids_said(toks: list[Token], *, write: bool, value: Any = None,
             id_words: frozenset[str] = frozenset()) -> set[str]:
    """The numbers and letters a command says that may number a thing: any of a read's; of a
    write's, not one said as the value ("to 1300", "1300 rpm"), nor the number `value` written
    unless it is said as a number of a thing (after one of `id_words`, "pump 2", or as an
    ordinal, "second")."""
    written = float(value) if isinstance(value, (int, float)) and \
        not isinstance(value, bool) else None
    return {t.text for i, t in enumerate(toks) if t.is_id and not (write and (
        (i and toks[i - 1].raw in _VALUE_BEFORE) or unit_after(toks, i)
        or (written is not None and t.number is not None and float(t.number) == written
            and not t.ordinal and not (i and toks[i - 1].text in id_words))))}


#: words a value follows ("to 1300", "at 40"): a number after one numbers no thing
_VALUE_BEFORE = frozenset(("to", "at", "by", "from"))


#: what happens to a plant, after "at"/"on": "fan on at start-up", "pump off on trip" say when
_EVENTS = frozenset("start stop startup shutdown trip restart boot changeover alarm".split())


_QUOTES = "\"“”„«»「」『』〝〞〟‟＂‘‚‛‹›《》〈〉﹁﹂﹃﹄＇′″‴〖〗〘〙〚〛⟨⟩⟪⟫⸢⸣⸤⸥"
#: an ASCII or closing single quote that opens or closes words, not an apostrophe ("valve's",
#: "don't", "pumps' speed" stay words): "'start the bilge pump'"
_SINGLE_QUOTED = re.compile(r"(?:^|(?<=[^\w'’]))['’](?=\S)|(?<=\S)['’](?=\s*$|[^\w\s])")


def _enough(term: Term, toks: list[Token]) -> float:
    """How well a term must be explained: a Chinese word of several characters said of an
    English-named point is read through the lexicon, which knows fewer words than a plant has
    (紫外线杀菌器): a hint is enough there. A character read alone must be explained as well
    as any word: "3档" is no speed, "华氏度" no °C."""
    tok = toks[term.index]
    written = tok.written or tok.raw
    several = len(written) > 1 or ("unit" not in term.kinds
                                   and not lone_character(term, tok))
    return NEAR_ENOUGH if tok.zh and several else EXPLAINED


#: a Chinese word explained at least this well (coverage's NEAR: begins like a word of it)
NEAR_ENOUGH = 0.3


def _other_kind(term: Term, profile: Profile) -> bool:
    """A thing of a narrower kind than the point's ("drain valve" of a steam valve): what
    ranks candidates, but no thing to write to."""
    return "thing" in term.kinds and bool(term.concepts) and \
        term.word not in profile.names and term.word not in profile.words and \
        not term.concepts & (profile.concepts | profile.part_concepts) and \
        not (not term.shown.isascii()
             and any(profile.names & bridge_words(c) for c in term.concepts))


#: the punctuation and signs a command is written with (after NFKC: "！" is "!"); brackets
#: and quotes are weighed apart (`_quote`, `_pasted`)
_PLAIN_MARKS = frozenset(".,!?;:'\"%&*/@#\\_-‐‑‒–—―⸺⸻〜。、·・‰`")


def _quote(c: str) -> bool:
    """A quotation mark, or a bracket of a title or a quotation (《》, 「」, ❨❩): not "( [ {"
    and 【】〔〕, which `_pasted` weighs, nor the apostrophe ’ (`_SINGLE_QUOTED`)."""
    kind = unicodedata.category(c)
    return c in _QUOTES or (kind in ("Pi", "Pf") and c != "’") or \
        (kind in ("Ps", "Pe") and c not in "()[]{}【】〔〕")


def _strange_mark(c: str) -> bool:
    """A mark no command is written with: a ditto mark 〃, a hyphen bullet ⁃, a section sign,
    another script's hyphen (֊ before a number is a minus the reader would drop), a modifier
    letter's accent or minus (˗)."""
    return unicodedata.category(c) in ("Po", "Pd", "Pc", "Sk") and c not in _PLAIN_MARKS


#: letters that show nothing (Hangul fillers) and a space drawn as a line (Ogham)
_BLANK_LETTERS = frozenset("\u3164\u115f\u1160\uffa0\u1680")


def _hidden(text: str, nfkc: str) -> Doubt | None:
    """Characters that hide words from a reader (a zero-width space, a soft hyphen, a
    direction mark, a combining strike-through), quote someone, or are no sign a command is
    written with (a ditto mark, a hyphen bullet, an Armenian hyphen before a number): a write
    is never taken from such text. Look-alikes are judged by what they fold to (`nfkc`):
    "｢" is "「", "﹙" is "("."""
    odd = [c for c in text if (unicodedata.category(c) in ("Cf", "Cs", "Co", "Cn", "Cc")
           and c not in "\t\n\r") or c in _BLANK_LETTERS] + \
        [c for c in nfkc if unicodedata.category(c) == "Mn"]  # (tab, line break: `_pasted`)
    if odd:
        return Doubt("unreadable", tuple(dict.fromkeys(f"\\u{ord(c):04x}" for c in odd)))
    quotes = [c for c in nfkc if _quote(c)] + \
        [m.group(0) for m in _SINGLE_QUOTED.finditer(nfkc)]
    if quotes:
        return Doubt("question", (quotes[0],))  # words quoted: about a command, not one
    marks = [c for c in nfkc if _strange_mark(c)] + \
        [c for c in text if unicodedata.category(c) == "So" and c not in _UNIT_SYMBOLS
         and not "\u3380" <= c <= "\u33ff"]  # (ⓞⓝ folds to "on"; ㎏ is a unit)
    if marks:
        return Doubt("unreadable", (marks[0],))
    maths = [c for c in nfkc if unicodedata.category(c) == "Sm" and c not in "=+−-"]
    if maths:
        return Doubt("approximate", (maths[0],))  # "≲ 1000", "~1000", "<1000"
    return None


def _explained(text: str, toks: list[Token], point: Point,
               profiles: Profiles | None, value: Any = None) -> Doubt | None:
    """Every word that says which point is meant is one this point explains (by its names,
    unit, description, or a concept it has), or one that means the choice written (清洗 of a
    mode's "cleaning"): "open the drain valve" is no write to steam valve 2, "he said to open
    valve 2" none at all."""
    if profiles is None or point.id not in profiles.by_id:
        return None
    profile = profiles.by_id[point.id]
    formula = profiles.other_formula(profiles.formula_words(toks), profile)
    if formula is not None:
        return Doubt("other_thing", (formula.upper(),))  # "l1" of "Feeder 1 L3 current limit"
    found = terms(text, toks, profiles)
    if not found and _by_tag(toks, point):
        return None  # "stop P-101" of a switch named "P-101": its tag, said whole
    if not found:
        # no word says which point is meant ("far 1", "2 back", "1 at"): whatever proposed
        # this one guessed it
        return Doubt("unexplained", tuple(t.shown for t in toks if not t.zh or t.written)
                     or (text.strip(),))
    allowed = MANNER | _spellings(point.unit)
    if point.unit and "/" in point.unit and \
            all(set(t.raw.split()) <= _TIME_ONLY for t in found) and \
            not any(t.text in _Own.of(point).texts or t.text in _Own.of(point).raws
                    for t in toks if not t.is_number):
        # "set it to 500 an hour": a rate's time alone names no point, of however many per
        # hour (atk32); what is counted or weighed says its unit ("15 kilos an hour")
        return Doubt("unexplained", tuple(t.shown for t in found))
    sense = point_sense(point)
    if sense is not None:
        # "normalise feeder 3", "de-isolate …": the undoing of the action the switch is named
        # by says its value, as the action does (`rules.state_named` decides which)
        allowed = allowed | sense.opposites | set(UNDO_PREFIXES)
    choice = {s.concept for choice, said in spellings(point) if choice == value
              for s in profiles.lexicon.concepts(said)} if point.choices else set()
    if point.choices and isinstance(value, str):
        # ("put loop 3 in auto": the choice "automatic" cut short, "hold" of "holding")
        allowed = allowed | {t.raw for t in toks for choice, said in spellings(point)
                             if choice == value and said_in_form(t.raw, said.casefold())}
    # 每小时3000方: "per" before the time of the point's own rate (每秒 of a point in m/min
    # is no unit of it)
    per = {i for i, t in enumerate(toks[:-1]) if t.raw == "每"
           and {toks[i + 1].raw, toks[i + 1].text} & allowed & _PERIODS}
    initials = _initials(toks, profile, profiles)
    unexplained = [t.shown for t in found if not {t.raw, t.word, t.shown} & allowed
                   and not (t.raw == "每" and t.index in per) and t.index not in initials
                   and not t.concepts & choice and (
        explained(t, profile, found, phrases=False) < _enough(t, toks) or _other_kind(t, profile))
        and not _clipped(t.word, profile, profiles)]
    if not unexplained and point.choices:
        # the choice alone ("put it in CIP", "purge", 切到手动) names no point: two mode
        # points may both take it, and the model's pick of one is a guess
        words, names = _choice_words(point), _Own.of(point).texts
        if found and not any(t.word in names or not (
                {t.raw, t.word, t.shown} & allowed or t.concepts & choice or t.word in words)
                for t in found):
            unexplained = [t.shown for t in found if not {t.raw, t.word, t.shown} & allowed]
    if not unexplained:
        # "load to 80 kW": the words say only what the point's unit measures, and another
        # writable point has that unit (a generator setpoint in kW beside a chiller's power
        # limit): the unit tells them apart no better than the word
        named = [t for t in found if not {t.raw, t.word, t.shown} & allowed
                 and not t.concepts & choice]
        if named and point.unit and not any(_by_name(t, profile) for t in named) and any(
                o is not profile and o.point.writable and o.point.unit == point.unit
                for o in profiles.all):
            unexplained = [t.shown for t in named]
    if not unexplained:
        # "separator speed feedback 90": a word for the measured value ("feedback", "actual",
        # "PV", 反馈), which names no point alone (no term) but says the measurement is meant,
        # not the setpoint beside it; unless the point's own names say it
        own = _Own.of(point)
        unexplained = [t.shown for t, senses in zip(toks, profiles.lexicon.senses(text, toks),
                                                     strict=True)
                       if t.number is None and t.text not in own.texts
                       and any(s.concept == _MEASURED for s in senses)]
    return Doubt("unexplained", tuple(unexplained)) if unexplained else None


def _initials(toks: list[Token], profile: Profile, profiles: Profiles) -> set[int]:
    """Where a letter and a number say the point's numbered thing by its first letter ("R1"
    of "Raceway 1 …", "T1" of "Tank 1 …"), where no other thing of the plant begins with that
    letter and has that number (a "Pump 1" beside a "Pond 1" makes "P1" either)."""
    found = set()
    for i, t in enumerate(toks[:-1]):
        number = toks[i + 1].text
        if len(t.raw) != 1 or not t.raw.isascii() or not t.raw.isalpha() or \
                toks[i + 1].number is None:
            continue
        mine = {w for w, n in profile.pairs if n == number and w.startswith(t.raw)}
        if len(mine) == 1 and not any(w.startswith(t.raw) and n == number and w not in mine
                                      and len(w) > 1 for w, n in profiles.pairs):
            found.add(i)
    return found


def _by_tag(toks: list[Token], point: Point) -> bool:
    """Whether the command names the point by a tag that is the whole of one of its names
    ("P-101", "XV 12") or a letter and number inside one ("P-202" of a "Transfer pump
    P-202"), and says nothing but that and on/off."""
    said = [t for t in toks if t.raw not in _SWITCH_WORDS | MANNER]
    for label in map(unpaired, (point.name, *point.aliases)):
        own = tokens(label)
        if point.kind == "bool" and len(own) > 1 and own[-1].raw in _RUN_LAST:
            own = own[:-1]  # "stop P-301B" of a "P-301B run" (blind batch 34)
        if own and any(t.is_id for t in own) and len(own) <= 3 and \
                [(t.raw, t.text) for t in said] == [(t.raw, t.text) for t in own]:
            return True
        # ...or a tag's letter and number written whole inside one ("stop P-202" of a
        # "Transfer pump P-202")
        heard = [(t.raw, t.text) for t in said]
        if len(said) == 2 and said[0].ident and said[1].is_number and any(
                heard == [(t.raw, t.text) for t in own[i:i + 2]] for i in range(len(own) - 1)):
            return True
    return False


#: the word a run switch's name ends with after its tag ("P-301B run", "M-12 cmd"; a
#: "start/stop" is taken off by `unpaired`)
_RUN_LAST = frozenset(("run", "cmd", "command", "motor"))


_MEASURED = "role.measured"


def _by_name(t: Term, profile: Profile) -> bool:
    """The point's own names say this word, or a concept of them (not only its unit)."""
    return t.word in profile.names or t.word in profile.words or any(
        w in profile.names for w in t.alts) or bool(
        t.concepts & (profile.concepts | profile.part_concepts | profile.things))


def _clipped(word: str, profile: Profile, profiles: Profiles) -> bool:
    """ "weather comp" of "Weather compensation mode": the word begins (four letters or more)
    one word of the point's names and no other word of the plant's names."""
    if len(word) < 4 or not word.isalpha() or word in profiles.name_words:
        return False
    longer = {w for w in profiles.name_words if w.startswith(word)}
    return len(longer) == 1 and longer <= profile.names


@dataclass(frozen=True, slots=True)
class _Own:
    """What the point's own names say: their words, numbers and Chinese text."""

    texts: frozenset[str]  # canonical words of its names
    raws: frozenset[str]  # as written
    numbers: frozenset[float]
    id_words: frozenset[str]  # words its names put before a number ("pump" of "pump 1")
    zh_names: tuple[str, ...]
    labels: tuple[str, ...]  # its names, case-folded
    counts: tuple[tuple[str, int], ...] = ()  # each word, as often as one name says it
    #: the last word of a name after the thing it is of ("defrost" of "Evaporator 2
    #: defrost"): what an on/off point does, a verb when a command opens with it
    acts: frozenset[str] = frozenset()
    #: the words of its names and aliases as written, not of its id or device: "sec" of
    #: "sec_pump1" names "Secondary pump 1", but "in a sec" still says when
    named: frozenset[str] = frozenset()
    #: a name of it is written number first ("#1 Boiler ID fan", "1#泵")
    numbered_first: bool = False

    @staticmethod
    def of(point: Point) -> _Own:
        return _own(point.id, point.device, point.name, tuple(point.aliases),
                    tuple(point.names.values()), tuple(w for w, _ in described_numbers(point)))


@lru_cache(maxsize=4096)
def _own(ident: str, device: str, name: str, aliases: tuple[str, ...],
         names: tuple[str, ...], described: tuple[str, ...] = ()) -> _Own:
    texts: set[str] = set()
    raws: set[str] = set()
    numbers: set[float] = set()
    id_words: set[str] = set()
    counts: Counter[str] = Counter()
    labels = (ident.replace("_", " "), device.replace("_", " "), name, *aliases, *names)
    for label in labels:
        toks = tokens(label)
        counts |= Counter(t.text for t in toks if t.number is None)
        for i, t in enumerate(toks):
            if t.number is not None:
                numbers.add(float(t.number))
                numbers.update(float(g) for g in t.groups if g.isdigit())
                if i > 0 and toks[i - 1].number is None and not (
                        i + 1 < len(toks) and toks[i + 1].raw in WAYS):
                    id_words.add(toks[i - 1].text)  # "pump" of "pump 1" (and of "1号泵")
            else:
                texts.add(t.text)
                raws.add(t.raw)
    # "pump 1" of "Pumpe1.Ein": a machine named in another language is numbered in English
    id_words |= {e for w in id_words for e in english_labels(w)}
    id_words |= set(described)  # ("chamber 1" of "...Kammer1...", "Die oven chamber 1 ...")
    zh_names = tuple(n.casefold() for n in labels if any(is_cjk(c) for c in n))
    acts = set()
    named = {t.raw for label in (name, *aliases, *names) for t in tokens(label)}
    for label in (name, *aliases):
        said = [t for t in tokens(label) if t.number is None]
        if len(said) > 1 and said[-1].text not in {t.text for t in said[:-1]}:
            acts.add(said[-1].text)
    first = any((toks := tokens(label)) and toks[0].number is not None
                for label in (name, *aliases))
    return _Own(frozenset(texts), frozenset(raws), frozenset(numbers), frozenset(id_words),
                zh_names, tuple(unicodedata.normalize("NFKC", x).casefold() for x in labels),
                tuple(counts.items()), frozenset(acts), frozenset(named), first)


_NOBODY = _Own(frozenset(), frozenset(), frozenset(), frozenset(), (), ())


def _mine(t: Token, own: _Own) -> bool:
    return t.number is None and t.text in own.texts and (t.raw in own.raws or not _plural(t))


def _plural(t: Token) -> bool:
    return t.raw != t.text and t.raw in (t.text + "s", t.text + "es")


def _unreadable(toks: list[Token], own: _Own) -> Doubt | None:
    odd = tuple(t.raw for t in toks if t.unreadable and t.text not in own.texts)
    return Doubt("unreadable", odd) if odd else None


def _choice_words(point: Point) -> frozenset[str]:
    """The words of a point's choices, as tokens ("minimum", "max cooling")."""
    return frozenset(t.text for _, said in spellings(point) for t in tokens(said)
                     if t.number is None)


def _in_choice(toks: list[Token], i: int, point: Point) -> bool:
    """Token `i` is a word of one of the point's choices said whole ("minimum" of "vent mode
    minimum"), not a word that a choice merely shares: the "about" of "set line mode to about
    ready" is an approximation still, where "about to start" is another choice."""
    for _, said in spellings(point):
        words = [t.text for t in tokens(said)]
        n = len(words)
        if any([x.text for x in toks[j:j + n]] == words for j in range(max(0, i - n + 1), i + 1)):
            return True
    return False


def _english_words(toks: list[Token], own: _Own, point: Point | None,
                   unit_at: Collection[int] = (), caps: AbstractSet[str] = frozenset()
                   ) -> Doubt | None:
    """`unit_at`: where the point's own unit is written after the number ("650 kN/m": its
    "m" is no letter of another thing); `caps`: the stop words written in capitals."""
    raw = [t.raw for t in toks]
    left = Counter(dict(own.counts))  # each word of the point's names, as often as a name says it
    spelled = _spellings(point.unit) if point is not None else frozenset()
    for i, t in enumerate(toks):
        if t.zh or t.number is not None or t.unit:
            continue
        if left[t.text] > 0 and (t.raw in own.named or t.raw not in _WHEN):
            # (a time word its id says, not its names: "in a sec" of a "sec_pump1" says when;
            # "DO" of "do_setpoint" is still dissolved oxygen)
            left[t.text] -= 1
            if _plural(t) and t.raw not in own.raws and t.text in own.id_words:
                return Doubt("several_targets", (t.raw,))  # "valves" for valve 2 (of several)
            continue
        word = t.raw
        if word in caps and point is not None and _capital_of_its_own(word, point):
            continue  # "T1 DO setpoint" of a dissolved oxygen setpoint: its word, no verb
        if word in _POLITE and raw[i + 1:i + 2] in (["you"], ["u"]) and (
                i + 2 == len(raw) or raw[i + 2] in WRITE_VERBS
                or raw[i + 2] in ("please", "pls", "plz", "kindly")):
            continue  # "could you open valve 2", "open valve 2, will you": a request
        if word == "and" and (raw[i - 1:i] in (["ahead"], ["try"])
                              or raw[i + 1:i + 2] in (["thanks"], ["thank"])):
            continue  # "go ahead and open valve 2", "and thanks"
        if (word in spelled or i in unit_at) and point is not None and point.unit:
            continue  # "10 minutes" of a point in min, "1000 r/min", "300 deg C", "120 t/hr":
            # its own unit
        if point is not None and point.choices and _in_choice(toks, i, point):
            continue  # "vent mode minimum": a choice of the point, no bound (what is named
            # as the value is the choice check's, `_value`)
        if word == "so" and all(w in _HESITATIONS | _AGREED for w in raw[:i]) and (
                any(w in _AGREED for w in raw[:i])
                or (raw[i + 1:i + 2] and raw[i + 1] not in WRITE_VERBS | _LETS)):
            return Doubt("question", (" ".join(raw[:i + 1]),))  # "ok so pump 1 off", "um, so
            # it's pump 1 speed 50": a read-back of what was heard, perhaps (atk67, atk67b)
        if word in ("ok", "okay", "alright") and raw[i + 1:i + 2] and toks[i + 1].after_break:
            continue  # "ok, open valve 2"
        if all(w in _HESITATIONS for w in raw[:i + 1]) and raw[i + 1:i + 2]:
            continue  # "um, set …": said before the command, which nothing before it can
            # correct ("ok so pump 1 off" is still asked back: a read-back of what was heard,
            # perhaps, as "ok start the bilge pump" is, review rv27 and atk67 C5)
        if word == "u" and i and raw[i - 1] in _POLITE:
            continue  # "can u open valve 2"
        if word in ("pls", "plz") and i and raw[i - 1] in ("you", "u"):
            continue
        if word == "write" and raw[i + 1:i + 2] in (["down"], ["up"]):
            return Doubt("question", ("write " + raw[i + 1],))  # "write down: set ...": a note
        if word in ("at", "on", "upon") and raw[i + 1:i + 2] and raw[i + 1] in _EVENTS and \
                raw[i + 1] not in own.raws:
            return Doubt("when", (f"{word} {raw[i + 1]}",))  # "fan on at start-up", "off on stop"
        if word == "close" and raw[i + 1:i + 2] == ["to"] and \
                any(x.number is not None for x in toks[i + 2:i + 3]):
            return Doubt("approximate", ("close to",))
        if t.ident and point is not None and t.text not in own.texts and i not in unit_at:
            return Doubt("other_thing", (t.shown,))  # "feed pump B" is no pump 1
        if word in ("up", "down") and i and raw[i - 1] in PARTICLE_VERBS and (
                point is None or point.kind == "bool" or not any(
                    x.number is not None and x.number not in own.numbers for x in toks[i + 1:])):
            continue  # "shut down feed pump 1", "open up"; "power down … 40" of a speed: by 40
        if word == "up" and raw[i + 1:i + 2] == ["to"] and i and (
                (raw[i - 1] in _UP_VERBS and raw[i - 1] not in own.raws)
                or (raw[0] in _UP_VERBS and raw[1:2] and raw[1] in _OBJECT_OPENING)
                or (raw[0] in _UP_VERBS and (raw[0] not in own.raws or (
                    raw[0] in _NOT_A_THING and not any(
                        [x.raw for x in tokens(label)][:1] == [raw[0]] for label in own.labels)))
                    and _numbered_thing(toks[1:i]))):
            continue  # "bring the separator up to 950", "speed the cooler grate up to 12",
            # "speed ironer 2 up to 28": to it, no bound (not "winch speed up to 30", whose
            # "speed" is the point's own word: a limit, or a report — atk29; nor "speed
            # setpoint up to 30"; nor "heat pump 2 up to 55", "knock-out drum 1 up to 60",
            # whose first word names the thing: atk58)
        if word in ("up", "down") and raw[i + 1:i + 2] == ["to"] and not any(
                x.raw in WRITE_VERBS | _UP_VERBS | _TO_VERBS
                | (_DOWN_VERBS if word == "down" else frozenset())
                and (x.raw not in own.raws or (raw[k + 1:k + 2] or [""])[0] in _OBJECT_OPENING)
                for k, x in enumerate(toks[:i])):
            return Doubt("approximate", (f"{word} to",))  # "pump 1 up to 1200": a bound; so
            # too said in other words than the point's ("line rate up to 150" of a "Line
            # speed setpoint": review atk57), where no verb before makes it a change (the
            # "speed" of "separator speed up to 950" and the "wind" of "wind speed up to 20"
            # are words of names, no verbs; the "turn" of "turn the turntable up to 20" is one)
        if word == "over" and raw[i + 1:i + 2] == ["to"] and i and not any(
                (x.number is not None and not (point is not None and _in_choice(toks, k, point)))
                or x.unreadable for k, x in enumerate(toks[i + 2:], i + 2)):
            continue  # "switch the mode over to manual", "… over to silo two" (a choice
            # "silo_2"): a change of state, no bound
        if word == "hold" and (raw[i + 1:i + 2] == ["on"] or (
                raw[i + 1:i + 2] in (["it"], ["up"], ["off"]) and i + 2 == len(raw))):
            # "hold on", and "start pump 1, hold it" said last: wait (review atk69)
            return Doubt("correction", (f"hold {raw[i + 1]}",))
        if word in ("i", "we") and any(w in WRITE_VERBS for w in raw[i + 1:i + 3]):
            return Doubt("question", (f"{word} {raw[i + 1]}",))  # "we set pump 1 to 1200": a
            # report
        if word in ("you", "u") and (i == 0 or t.after_break) and \
                raw[i + 1:i + 2] and (raw[i + 1] in WRITE_VERBS or raw[i + 1] in _WISHED):
            return Doubt("question", (f"{word} {raw[i + 1]}",))  # "you set pump 1 to 1200",
            # "you want the pump in manual": said of you, or asked, not asked of you
        if word == "current" and not any(w in WRITE_VERBS for w in raw[:i]):
            return Doubt("question", (t.shown,))  # "current makeup valve open": the state it
            # is in (a current the point measures is its own word, passed above)
        if word in _TAGS and i == len(raw) - 1 and i > 0 and not (
                point is not None and point.kind == "bool" and word in ("true", "false")):
            return Doubt("question", (word,))  # "pump mode manual, right": asked back
        problem = next((p for p, listed in _EN if word in listed), None)
        if _NEGATED.search(word):
            problem = "negation"
        if t.text in ("?not",):
            problem = "negation"
        elif t.text in ("?yn", "who"):
            problem = "question"
        elif t.text == "?fix":
            problem = "correction"
        if problem == "relative" and word not in ("by", "another", "extra") and (
                "to" in raw[i + 1:] or (word in ("up", "down") and not any(
                    x.number is not None for x in toks[i + 1:]))):
            continue  # "raise pump 1 to 1000": to a value; "shut the genset down": a particle
        if problem is not None:
            return Doubt(problem, (t.shown,))
    return None


_APPROX_MARKS = re.compile(r"[~≈±<>≤≥∼〜～]|\+/-|(?<![\w.])-?\d[\d.,]*\s*(?:ish|\+)(?!\w)")
_PERCENT = re.compile(r"%|％|\bper\s*cent\b|\bpercent\b|\bpct\b|百分之")
_GLUED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([a-z]+)(?![\w/])")
_ORDINAL_ENDS = frozenset(("st", "nd", "rd", "th"))
_DURATION = re.compile(r"(?<![\w.'’])\d+(?:\.\d+)?\s?(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?"
                       r"|ms|d|days?)(?![\w/])")
_TIME = re.compile(r"(?<![\w.])\d{1,2}:\d{2}(?!\d)|\d\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])")

#: a time said with no figure, in which, for which or after which to make the change ("in an
#: hour", "for a minute", "within the next hour", "in a few mins", "an hour from now"): the
#: time words of a rate's own unit ("hour" of t/h, "minute" of rpm) are no unit here
_IN_A_TIME = re.compile(
    r"\b(?:(?:in|within|for|after|over|inside|during|next|every|each)\s+"
    r"(?:(?:a|an|one|the\s+next|just|next|few|couple|of|half|quarter|several|other"
    r"|more|another)\s+)+"
    r"(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|moments?|while|bit)"
    # ("for the hour", "in this hour" at the end; not "in the second house", "that day tank")
    r"|(?:in|within|for|over|inside|during)\s+(?:the|this|that)\s+"
    r"(?:second|minute|hour|day|shift|week)(?=\s*(?:$|[.,;:!?)]|(?:please|pls|now|thanks|and"
    r"|then|or)\b))"
    r"|on\s+the\s+(?:hour|minute|half\s+hour)"
    r"|(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?)\s+(?:from\s+now|hence|later))"
    r"(?![\w/])")


#: a value with a letter typed for a digit before it ("to l00", "at I200": l and I for 1, O for
#: 0), which the number reader would drop
_LETTER_FOR_DIGIT = re.compile(
    r"(?:\b(?:to|at)|[=为到至成])\s*[(\[]?\s*([lio!|]+\s?\d[\d.,]*)(?![\w])")


def _in_a_time(folded: str) -> Doubt | None:
    """A change asked for later, for a while or over a time said with no figure ("set the feed
    to 120 t/h in an hour", "fan to 1200 rpm for a minute"); with a figure it is `_marks`'s."""
    said = _IN_A_TIME.search(folded)
    return Doubt("when", (said.group(0),)) if said else None


def _marks(text: str, folded: str, unit: str | None, own: _Own,
           choices: frozenset[str] = frozenset()) -> Doubt | None:
    """What only the characters say: a question mark, an approximation, a percent sign."""
    mark = _APPROX_MARKS.search(folded)
    if mark:
        return Doubt("approximate", (mark.group(0).strip(),))
    slip = _LETTER_FOR_DIGIT.search(folded)
    if slip:
        return Doubt("unreadable", (slip.group(1),))  # "to l00": 100 meant, 0 read
    time = _TIME.search(folded)
    mine = unit_symbol(unit or "") or (unit or "").casefold()
    for duration in _DURATION.finditer(folded):  # "in 10 s", "for 5 min", never "2's"
        said = duration.group(0).lstrip("0123456789. ")
        written = text[duration.start():duration.end()].lstrip("0123456789. ") \
            if len(text) == len(folded) else said  # ("20 mS" of a point in mS: no time)
        if said not in _spellings(mine) and unit_symbol(written) != mine:
            time = time or duration
    if time:
        return Doubt("when", (time.group(0),))
    marks = [c for c in text if question_mark(c)]
    polite = re.match(r"\W*(?:(?:please|hey|ok|okay)\W+)?(?:can|could|would|will)\s+(?:you|u)\b",
                      folded) or re.search(r"\b(?:will|would)\s+you\W*$", folded) or \
        re.search(r"(?:帮我|帮忙|请|麻烦).*吗\s*[?？]\s*$", folded)
    if marks and not (polite and len(marks) == 1 and folded.rstrip()[-1:] in ("?", "？")):
        return Doubt("question", (marks[0],))
    foreign = _FOREIGN_UNITS.search(folded)
    if foreign and not any(foreign.group(0) in label for label in own.labels) and \
            foreign.group(0) not in choices:  # ("put the chain in inch": its mode's choice)
        return Doubt("unit", (foreign.group(0),))
    for glued in _GLUED.finditer(folded):  # "1aaa", "2a": no number a person means
        letters = glued.group(2)
        # (as written where case tells units apart: "50mW" is no "50MW")
        symbol = unit_symbol(text[glued.start(2):glued.end(2)]
                             if len(text) == len(folded) else letters)
        lettered = re.compile(rf"(?<![\w.]){re.escape(glued.group(1))}[- ]?{letters}(?!\w)") \
            if len(letters) == 1 else None
        if letters in _ORDINAL_ENDS or mine in (symbol, f"°{letters}") or \
                any(glued.group(0) in name or (lettered is not None and lettered.search(name))
                    for name in own.labels):  # ("60c" of a °C point; "1b" of a "Pump 1-B")
            continue
        if symbol is not None and len(letters) > 1:
            return Doubt("unit", (glued.group(0),))  # "20hz" for an rpm point
        return Doubt("other_thing", (glued.group(0),))
    percent = _PERCENT.search(folded)
    if percent and (unit_symbol(unit or "") or "") not in ("%", "%rh") and \
            not _qualified_percent(unit):
        return Doubt("unit", (percent.group(0),))
    if percent and _qualified_percent(unit):
        said = _said_of_a_per_cent(folded[percent.end():], unit or "", own)
        if said:
            return Doubt("unit", (f"{percent.group(0)} {said}",))
        for side, other in _POSITION_SIDES:
            otherwise = next((m for m in re.finditer(other, folded)
                              if m.group(0) not in own.raws
                              and not any(m.group(0) in label for label in own.labels)), None)
            if unit_words(unit or "") & side and otherwise:
                return Doubt("unit", (otherwise.group(0),))  # "open the door to 30 %" of a
                # door in "% closed": 30 % open is 70 % closed
    return None


def _said_of_a_per_cent(after: str, unit: str, own: _Own) -> str:
    """What a per cent is said to be of, where it is another thing than a point in "% LEL" or
    "% solids" is a per cent of ("1 percent on methane", "1%甲烷": review atk42); "" where it is
    the unit's own word, or no quantity or medium at all ("40 % on tank 2", "please")."""
    words: list[str] = re.findall(r"[^\W\d_]+", after)[:4]
    for word in words:
        if is_chinese(word):
            found = [m for m in lexicon().concepts_of_text(word) if m.start == 0]
            if any(m.kind in ("quantity", "medium") for m in found):
                return word  # (a unit's word is English: "20%LEL")
            return ""
        if canonical(word) in unit_words(unit) or canonical(word) in MANNER or \
                word in _AFTER_A_VALUE or word in own.raws:
            continue
        kinds = {m.kind for m in lexicon().concepts_of_text(word)}
        return word if kinds & {"quantity", "medium", "state"} or \
            word in ("open", "opening", "closed", "closing", "shut") else ""
    return ""


#: the two ways a position in per cent is written ("% open", "% closed"), and the words that
#: say the other way in a command. Raising or lowering a door or gate in "% closing" says both
#: ways at once: raising opens the door and raises the number of a closing (review atk42)
_POSITION_SIDES = (
    (frozenset(("closed", "close", "shut", "closing")),
     r"\bopen\w*|^\W*(?:please\s+)?(?:raise|lift|lower)\b|开度|打开|开启|开到|开至|开大|提升|抬起"
     r"|升起|开(?=\s*\d)"),
    (frozenset(("open", "opening")), r"\b(?:close|shut)\w*|关度|关闭|关到|关至|关小|关(?=\s*\d)"))


@lru_cache(maxsize=1)
def _zh_dictionary() -> tuple[frozenset[str], dict[str, str], int]:
    """Chinese words for segmentation (so that the 和 of 饱和 is no "and"), and ours."""
    words = {w for w in ZH_WORDS if len(w) > 1}
    for c in lexicon().concepts.values():
        words.update(f for f in c.zh_forms if len(f) > 1)
    ours = {w: problem for problem, listed in _ZH.items() for w in listed.split()}
    words.update(ours)
    return frozenset(words), ours, max(map(len, words))


def _segments(run: str, words: frozenset[str], longest: int) -> list[str]:
    """Forward maximum matching: the longest known word at each place, else one character."""
    out = []
    i = 0
    while i < len(run):
        for n in range(min(longest, len(run) - i), 0, -1):
            piece = run[i:i + n]
            if n == 1 or piece in words:
                out.append(piece)
                i += n
                break
    return out


def _a_write_verb(piece: str) -> bool:
    """A Chinese word of a change ("切换到", "设为", "打开")."""
    return bool(set(ZH_WORDS.get(piece, "").split()) & WRITE_VERBS)


def _chinese(folded: str, own: _Own, point: Point | None) -> Doubt | None:
    if not any(is_cjk(c) for c in folded):
        return None
    cut = _ZH_CUT_OFF.search(folded)
    if cut:
        return Doubt("not_stated", (cut.group(1),))  # "3号泵开到": cut off before its value
    said = _zh_statement(folded) or _zh_moved_to(folded, point)
    if said:
        return Doubt("question", (said,))
    thing = _ZH_THING_AS_VALUE.search(folded) or _ZH_SIGNED.search(folded)
    if thing:
        return Doubt("unreadable", (thing.group(0),))  # 改3#, 给到第2, 改5个: a thing or a
        # count said where the value goes (review atk72: each was written as the number);
        # -四度: a minus sign before Chinese numerals, which the number reader drops (review
        # atk73: 冷库温度设定改成-四度 wrote 4)
    # its own Chinese names, and those of its choices (the 和 of a choice 中和 is no "and")
    named = [*own.zh_names, *(said.casefold() for _, said in spellings(point) if is_chinese(said))
             ] if point is not None else list(own.zh_names)
    for name in sorted(named, key=len, reverse=True):
        folded = folded.replace(name, " ")
    words, ours, longest = _zh_dictionary()
    text = re.sub(r"\s+", "", folded)
    if point is not None and point.unit and "/" in point.unit:
        # its unit's Chinese words (and the lexicon's before a 每: 公里 of 公里每小时)
        units = sorted({w for w in _spellings(point.unit) if is_chinese(w)} | {
            form.split("每")[0] for c in lexicon().units(point.unit) for form in c.zh_forms
            if "每" in form and not form.startswith("每")}, key=len, reverse=True)
        for every in _EVERY.finditer(text):
            following = _NUMBER_NEXT.match(text, every.end())
            leading = _NUMBER_BEFORE.search(text, 0, every.start())
            # a number and a unit beside it (of this point's, or any the lexicon knows: its
            # unit is judged on its own), not a number of a thing (3号泵) or 一 of 一定
            of_value = bool(following and any(following.group(2).startswith(u) for u in units)) \
                or bool(leading and (leading.group(2) in units or _a_unit(leading.group(2)))) \
                or bool(following and any(_a_unit(following.group(2)[:n]) for n in (1, 2, 3)))
            if _SCHEDULED.match(text, every.end()) or not of_value:
                return Doubt("when", (every.group(0),))  # 每小时把流量调到3000方: every hour,
                # not the rate of a value (每小时3000方, 3000方每小时); nor 3号泵每小时, 每小时一定,
                # 每小时请调到 (review atk63f)
    pieces = _segments(text, words, longest)
    for k, piece in enumerate(pieces):
        problem = ours.get(piece)
        before = pieces[k - 1] if k else ""
        after = pieces[k + 1] if k + 1 < len(pieces) else ""
        if piece.endswith("点") and after[:1] and after[0] in _ZH_NUMERAL:
            if (len(piece) > 1 and piece[-2] not in _ZH_NUMERAL) or \
                    (len(piece) == 1 and not (before[-1:] and before[-1] in _ZH_NUMERAL)):
                # 设定点五: the setpoint's 点 and five, or "point five" (0.5)?
                return Doubt("unreadable", (piece + after,))
            continue  # 一点五, 三点五: a decimal point
        if piece == "成" and before[-1:] and before[-1] in _ZH_NUMERAL:
            return Doubt("unreadable", (before + piece,))  # 八成: eighty percent, or "probably"
        if piece == "点" and before and before[-1] in _ZH_NUMERAL and not (
                after and after[0] in _ZH_NUMERAL):
            return Doubt("when", (before + piece,))  # "5点", "三点": a time of day
        if piece == "在" and not (before[-1:] in "设调定放控稳" or before in ("保持", "维持")):
            return Doubt("question", (before + piece + after,))  # 1号泵在1200转: where it is
        if piece == _DONE_BEFORE and (not after or _a_write_verb(before)):
            return Doubt("question", (before + piece,))  # 切换到手动过, 切换过: it was, once
        if piece == _STATE_DONE and ("把" not in text or text.startswith(_ZH_SUBJECTS)
                                     or re.search(f"[{''.join(_ZH_SUBJECTS)}]们?把", text)):
            # (谢谢您把补水阀打开了: thanks for what was done)
            return Doubt("question", (text[max(0, text.find("了") - 2):text.find("了") + 1],))
        if piece in ("现在", "目前", "当前") and (after[:1] in _ZH_NUMERAL or after[:1] in "是在已"):
            return Doubt("question", (piece + after,))  # 1号泵现在1000转: what it is, no command
        if "状态" in piece or "状况" in piece:
            return Doubt("question", (piece,))  # 补水阀开启状态: how it is, not what to do
        if problem is None:
            continue
        if problem == "several_targets" and piece == "每" and after[:1] in ("分", "秒", "小", "时"):
            if point is None or "每" + after not in _spellings(point.unit):
                return Doubt("unit", ("每" + after,))  # 转每秒 for a point in rpm
            continue  # 每分钟 of a point in rpm: its own unit
        if problem == "when" and before == "每":
            continue
        if point is not None and point.unit and piece in _spellings(point.unit):
            continue  # 10分钟 of a point in min, 米每分钟 of one in m/min: its own unit
        if problem == "question" and piece == "吗" and \
                all(not is_cjk(c) for c in "".join(pieces[k + 1:])) and \
                ("帮我" in text or "帮忙" in text or "请" in text or "麻烦" in text
                 or text.rstrip("?？。.!！ ").endswith("好吗")):
            continue  # 能帮我打开2号阀吗, 请打开2号阀，好吗: a request made politely
        if problem == "approximate" and piece in ("多", "来") and not (
                before and before[-1] in _ZH_NUMERAL):
            continue  # 多 of 多少 is a question, caught there; "来" of "来一下" is no bound
        if problem == "relative" and after.startswith(_ZH_TO):
            continue  # "提高到1000": to a value
        if problem == "relative" and piece == "加" and \
                _ADDED_BY.match("".join(pieces[k + 1:k + 3])):
            continue  # 加酸泵, 加碱泵, 加氯机: what adds a chemical, a name and no increase
        if problem == "question" and piece in ("需要",) and not text.endswith(("吗", "?", "？")):
            continue
        return Doubt(problem, (piece,))
    return None


_ZH_SWITCHING = "打开|开启|启动|关闭|关掉|停止|停机|开|关|停"
#: who may be asked politely before 可以/能 ("你能打开2号阀吗", "请问可以打开吗")
_ASKED = ("你", "您", "请", "请问", "麻烦", "帮我", "帮忙", "好的", "行", "那就")
#: a verb of setting before 为 ("设为", "改为", "切换为"): a value, not a state reported
_SET_BEFORE_WEI = "设改调定置换变转成整复原切选投"


#: verbs of a reading that went up or down to a value (液位降到50: the level fell to 50)
_ZH_MOVED = re.compile(r"降到|降至|降为|降低到|降低至|降低为|升到|升至|升为|升高到|升高至|升高为|"
                       r"涨到|涨至|掉到|跌到|跌至")
#: ...said as a command: 把 or 将 before the thing, asked (请, 帮, 要), or a setting named
_ZH_COMMANDED = re.compile(r"[把将请帮要给]|设定|设置|目标|给定")


#: a thing numbered, or things counted, where a verb of setting puts its value: 改3#, 调第2,
#: 给到2#泵, 改5个 (the tokens keep only the number)
_ZH_THING_AS_VALUE = re.compile(
    r"(?:改成|改为|改到|改至|调到|调为|调成|调至|设为|设成|设到|设至|给到|给成|变为|定为|改)\s*(?:第\s*[\d一二三四五六七八九十两]+|[\d一二三四五六七八九十两]+\s*"
    r"[#＃号个台只条组套泵罐阀机炉塔池仓线槽箱井窑柜管段区]|[#＃]\s*\d"
    # ...a decimal with no whole part (改.5: read as 5), two numerals in a row that say about
    # how much (改五六: five or six, read as 56) — review atk72b
    r"|\.\d|(?:一二|二三|三四|四五|五六|六七|七八|八九)(?![十百千万点\d]))")
#: a minus sign written before Chinese numerals (-四度, －十八度): no number we read signed
_ZH_SIGNED = re.compile(rf"[{re.escape(MINUS_SIGNS)}]\s*[零〇一二两三四五六七八九十百千万]")
#: a change asked with no value (改一改, 调一下), one done (改过), or by an amount (改大10);
#: 调 alone before a number is a change by it as often as to it (炉温调2度, review atk72b:
#: after a point's own Chinese name the tokens had no quantity word to mark it), but not the
#: 调 of 空调 nor one before a thing's number (调2号泵转速到1000); so are 调整 and 调节 (adjust:
#: 炉温调整2度, review atk73)
_ZH_VAGUE = re.compile(r"([改调])一\1|[改调]一下|[改调]过|[改调][大小高低上下](?=[\d一二三四五六七八九十两])"
                       r"|[改调]一(?=[点些吧啊。！!，,？?]|$)"  # (调一: 调一调 cut short)
                       r"|(?<!空)调[整节]?[\s:：,，、个]*(?=[-+负]?[\d一二三四五六七八九十两零〇.]+"
                       r"(?![\d一二三四五六七八九十两零〇.号#台个只条组套]))")


def _zh_moved_to(folded: str, point: Point | None) -> str | None:
    """ "储罐液位降到50", "炉温升至500": a reading that went to a value, told, of a setpoint
    standing in for it; asked with 把/请 or of the setting by name, it is a command (review
    atk71: they wrote the level's and the furnace's setpoints)."""
    text = re.sub(r"\s+", "", folded)
    vague = _ZH_VAGUE.search(text)
    if vague:
        return vague.group(0)  # 设定改一改, 调一下, 调过500: no value asked for, or done
    moved = _ZH_MOVED.search(text)
    if moved is not None and text[:moved.start()].endswith(("将", "会", "要", "快", "已", "已经")):
        return text[moved.start() - 1:moved.end()]  # 炉温将降至500: it will (review atk71b)
    if moved is None or point is None or not point.writable or point.kind == "bool" or \
            _ZH_COMMANDED.search(text[:moved.start()]):
        return None
    names = [point.name, *point.aliases, *point.names.values()]
    if any(n and n.casefold() in text for n in names):
        return None  # (its own name said: "2号泵转速设定降到1000" asks for it)
    if not {t.text for t in tokens(point.name)} & SETPOINT_WORDS:
        return None  # (a speed or an output set as such: "1号泵转速降到800" asks for it)
    return moved.group(0)


def _zh_statement(folded: str) -> str | None:
    """What is said of a point, not asked of us: "我们可以打开补水阀" (we can open it), "2号锅炉
    可以停机" (boiler 2 may be stopped), "补水阀能打开" (it can open), "补水阀开好" (it is
    opened), "补水阀为开" (the valve is open)."""
    text = re.sub(r"\s+", "", folded)
    for m in re.finditer(rf"可以|能够|(?:(?<![智功性节动电热效])能|可|将)(?={_ZH_SWITCHING})", text):
        # (能 alone, before no verb of switching, is of 太阳能, 节能; 将 after the thing is
        # "will": "2号锅炉将停机", before it the 把 of a command: "将2号锅炉停机")
        before = text[:m.start()]
        if before and is_cjk(before[-1]) and not before.endswith(_ASKED) and \
                not before.endswith("不"):  # 可不可以: asked
            return before[-2:] + m.group(0)
    by = re.search(f"[{''.join(_ZH_SUBJECTS)}]们?(?:{_ZH_SWITCHING})的", text)
    if by:
        return by.group(0)  # "您开的补水阀": the valve you opened
    done = re.search(r"(?:开|关|停|启动|打开|关闭|停机)好[。.!！]?$", text)
    if done and "把" not in text:
        return done.group(0)  # "补水阀开好" (it is opened); "把补水阀开好" asks for it
    for m in re.finditer(r"为(?=[开关启停运手自])", text):
        if m.start() == 0 or text[m.start() - 1] not in _SET_BEFORE_WEI:
            return text[max(0, m.start() - 2):m.end() + 1]
    return None


#: a chemical and then a machine, after 加 (加酸泵): a dosing machine's name
_ADDED_BY = re.compile(r"[酸碱氯药剂料]{1,2}(?:泵|机|器|装置|量|率)")


#: words that say an angle is meant by "degrees"
_ANGLE_SAID = re.compile(r"(?i)\b(?:angle|pitch|tilt|inclin\w*|slope|steep\w*|rotat\w*|"
                         r"bearing|heading|azimuth)")


def _units(text: str, toks: list[Token], own: _Own, point: Point) -> Doubt | None:
    mine = "%" if _qualified_percent(point.unit) else \
        unit_symbol(point.unit or "") or (point.unit or "").casefold()
    if point.unit and case_matters(point.unit):
        # "50 MW" of a point in mW, "50 ML" of one in mL: the letters of its unit in another
        # case are another unit, whatever the tokens made of them
        for said in re.finditer(r"\d\s*(" + re.escape(point.unit.strip()) + r")(?![\w/])",
                                text, re.IGNORECASE):
            if unit_symbol(said.group(1)) != mine:
                return Doubt("unit", (said.group(1),))
    if mine == "m" and (cubic := re.search(r"\d\s*([ns]?m3)(?![\w/])", text, re.IGNORECASE)):
        return Doubt("unit", (cubic.group(1),))  # "2 m3 tank" of a level in m: no 2 m and a 3
    mine_per = _per(point.unit or "")
    possessive = bool(re.search(r"\d['’]s\b", text))  # "CRAH 2's fan", "jet 1's heating rate"
    for said in _RATE_OF_A_RATE.finditer(text):
        # "120 t/h/h", "1200 rpm per minute", "2 m/s/s": a rate of change of the rate, said to
        # a point that is the rate itself (its value would be a ramp, not a setpoint)
        if (times := _times_said(said)) > 1 and times > _times_in(point.unit or ""):
            return Doubt("unit", (said.group(0).lstrip("0123456789.,").strip(),))
    if len(_PER_A_TIME.findall(text)) > max(1, _times_in(point.unit or "")):
        # "120 t of feed per hour per hour", "120 t per hour, per hour" (atk67b C3)
        return Doubt("unit", tuple(m.group(0).strip() for m in _PER_A_TIME.finditer(text)))
    for said in _RATE_WRITTEN.finditer(text):
        # a rate per another time than the point's ("3 t/min" of a point in t/h, "40升/秒" of
        # one in L/min; its slash full width or backwards too: review atk64g), or a rate said
        # to a point that is no rate ("66 kg/min" of a batch size in kg; "180/min": atk65r)
        rate = (said.group("unit") or "") + "/" + said.group("time")
        per = _time_of(said.group("time"))
        if per and per != mine_per:
            return Doubt("unit", (rate,))
        if per is None and said.group("time").isascii() and \
                not _per_its_own(said.group("time").casefold(), point.unit or "", mine_per):
            return Doubt("unit", (rate,))  # "50 L/dose", "50 L/kg" of a point in L/h (atk67b)
    for said in _PER_IN_LETTERS_SAID.finditer(text):
        # ...in the letters of a unit ("40 bpm" of a stroke rate per hour, "200 gpm" of a
        # volume: review atk65r)
        if _PER_IN_LETTERS[said.group(1).casefold()] != mine_per:
            return Doubt("unit", (said.group(1),))
    for said in _RATE_IN_WORDS.finditer(text):
        # ...said in words ("300 kg per min", "5 kg a second", "300 kg of lime per min")
        per = _time_of(said.group("time"))
        unit = said.group("unit")
        if per and per != mine_per and \
                not set(unit.casefold().split()) & _AFTER_A_VALUE and \
                (mine_per or _said_a_unit(unit)):
            return Doubt("unit", (said.group("rate"),))
    written = _unit_as_written(text, toks, point)
    spelled = _unit_spelled(text, point)
    for i, t in enumerate(toks):
        if t.raw == "per" and any(x.number is not None for x in toks[:i]) and \
                (after := toks[i + 1].raw if i + 1 < len(toks) else "") != "cent" and \
                after not in spelled and not _per_its_own(after, point.unit or "", mine_per) \
                and not _per_in_name(after, own):
            return Doubt("unit", (f"per {after}".strip(),))  # "50 L per dose" of a point in
            # L/h, "50 kg of feed per feeding" of one in kg/d (review atk67 C2, atk67b C1/C2)
        if i in written or (i and t.raw in spelled):
            continue  # "180 g/min" of a point in g/min: its own unit, as its config spells it;
            # "450 grams per square metre" of one in g/m², as the lexicon spells it
        if mine_per and _after_a_number(toks, i) and _time_of(t.raw) and \
                t.raw not in own.raws and not (t.raw == "s" and possessive):
            return Doubt("unit", (t.raw,))  # "20 h" of a dose in L/h: a time, no rate
        if t.unit == "°c" and mine in ("°", "deg", "degree", "degrees") and \
                re.fullmatch(r"deg(?:ree)?s?", t.raw) and _ANGLE_SAID.search(text):
            continue  # "deck angle to 18 degrees": an angle in °, said as people say it
            # (not "set the chiller to 7 degrees", a temperature meant, of its vanes in °)
        if t.unit and t.raw in own.raws and not (i and toks[i - 1].number is not None):
            continue  # "line amps to 220 kA" of the "Line amps SP": a word of its name
        if t.unit and "/" in mine and t.unit == mine.rpartition("/")[0] and ((
                [x.raw for x in toks[i + 1:i + 2]] in (["per"], ["a"], ["an"], ["每"]) and
                i + 2 < len(toks) and _time_of(toks[i + 2].raw) == mine_per) or (
                i >= 3 and toks[i - 1].number is not None and toks[i - 3].raw == "每"
                and _time_of(toks[i - 2].raw) == mine_per)):
            continue  # "50 degC per hour" of a point in °C/h: its own unit, in words; so
            # 1.5度每分钟 and 每分钟1.5度 of one in °C/min (blind batch 69)
        if t.unit:
            after = toks[i + 1].raw if i + 1 < len(toks) else ""
            if t.unit != mine or (t.unit == "°c" and after in ("f", "k", "fahrenheit",
                                                                  "kelvin")):
                return Doubt("unit", (t.shown if t.unit == mine else
                                      t.unit if t.raw == mine.casefold() else t.raw,)
                             if t.unit != mine else (f"{t.raw} {after}",))
        elif t.raw in ("fahrenheit", "kelvin", "kelvins") and not _mine(t, own):
            return Doubt("unit", (t.raw,))
        elif _after_a_number(toks, i) and len(t.raw) > 1 and \
                (symbol := unit_symbol(t.raw)) is not None and symbol != mine and \
                t.raw not in _spellings(point.unit):
            return Doubt("unit", (t.raw,))  # "5 bar", said as a word
        elif i > 0 and toks[i - 1].number is not None and len(t.raw) == 1 and \
                t.raw.isalpha() and t.raw.isascii() and (unit_symbol(t.raw) or t.raw) != mine \
                and not _mine(t, own) and not (t.raw == "s" and possessive) and \
                t.raw not in _spellings(point.unit):
            return Doubt("unit", (t.raw,))  # "500 F", "30 m" for a point in m/min
        elif _after_a_number(toks, i) and t.raw in _TURNS and t.raw not in own.raws and \
                t.raw not in _spellings(point.unit):
            return Doubt("unit", (t.raw,))  # "fan to 80 revolutions" of a speed in %
        elif _after_a_number(toks, i) and len(t.raw) > 1 and \
                (said_ids := unit_ids(t.raw)) and (mine_ids := unit_ids(point.unit or "")) and \
                not said_ids & (mine_ids | unit_ids(mine)) and unit_symbol(t.raw) != mine and \
                t.raw not in own.raws and t.raw not in _spellings(point.unit):
            return Doubt("unit", (t.raw,))  # "30 cfm" of a point in m³/min, "80 rpms" of one
            # in %: a unit the lexicon knows, none of the point's ("30 in cfm" too)
    return None


def _capital_of_its_own(word: str, point: Point) -> bool:
    """Whether a stop word written in capitals ("DO") is what the lexicon reads so of a word
    of the point's names (dissolved oxygen)."""
    said = {m.concept.id for m in lexicon().concepts_of_text(word.upper())}
    return bool(said) and any(m.concept.id in said for name in (point.name, *point.aliases)
                              for m in lexicon().concepts_of_text(name))


#: sounds said before a command begins ("um, set …")
_HESITATIONS = frozenset("um umm uh uhh erm er hmm".split())
#: ...and words of agreeing, which before "so" sum up what was heard ("ok so pump 1 off")
_AGREED = frozenset("ok okay alright right".split())
_LETS = frozenset(("let's", "lets", "please", "pls", "plz"))


#: turns counted, said after a number as the unit of a speed ("80 revolutions"), which the
#: lexicon has as words of speed, not as a unit
_TURNS = frozenset("revolution revolutions rotation rotations turns".split())


def _after_a_number(toks: list[Token], i: int) -> bool:
    """Whether the word at i follows a number, or "in" after one ("30 in cfm")."""
    return i > 0 and (toks[i - 1].number is not None or (
        i > 1 and toks[i - 1].raw == "in" and toks[i - 2].number is not None))


#: a number, a unit in up to two words, what of ("of lime") and the time it is per ("300 kg
#: per min", "5 kilos a second", "40 an hour", "300 kg of lime per min")
_RATE_IN_WORDS = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s*(?P<rate>(?P<unit>(?:(?:[%％]|[°µ]?(?!of\b)[^\W\d_][^\W_]*[²³]?)"
    r"\s+){0,2}?)(?:of\s+(?:[^\W\d_]+\s+){1,2}?)?[,(]?\s*(?:per|an?)\s+"
    r"(?P<time>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?))\b", re.IGNORECASE)
#: a number, a unit in letters (Latin or Chinese; or none), what of, a slash (full width or
#: backwards too) and a time ("3 t/min", "2000 m3/min", "300 kg of lime/min", "40升/秒",
#: "300公斤/min", "180/min")
_RATE_WRITTEN = re.compile(
    r"\d\s*(?P<unit>[A-Za-zµ°³²%％][A-Za-z0-9µ°³²]*|[\u4e00-\u9fff]{1,3})?(?:\s+of\s+[A-Za-z]+)?"
    r"\s*[/／\\]\s*"
    r"(?P<time>[A-Za-z]+(?![A-Za-z0-9²³])|秒钟?|分钟?|小时|时|天|日)")  # (not cd/m2, mg/m3)
#: a number, perhaps a unit, and two times it is per, one of them perhaps in the unit's letters
#: ("120 t/h/h", "1200 rpm/min", "1200 rpm per minute", "50 per hr per hr", "50 °C/h per hour")
_A_TIME = r"(?:seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|d|秒钟?|分钟?|小时|时|天|日)"
_PER_A = r"(?:\s*[/／\\]\s*|\s+(?:per|an?|every|each)\s+|\s*每)"
_RATE_OF_A_RATE = re.compile(
    r"\d\s*(?P<unit>[A-Za-zµ°³²%％][A-Za-z0-9µ°³²]*(?<!per)(?<!every)(?<!each)"
    r"|[\u4e00-\u9fff]{1,3}?)?"
    r"(?P<first>" + _PER_A + _A_TIME + r")?(?P<second>" + _PER_A + _A_TIME + r")(?![A-Za-z])",
    re.IGNORECASE)


#: a time a rate is per, wherever it is said ("per hour", "/h", "an hour", 每小时)
_PER_A_TIME = re.compile(r"(?:[/／\\]\s*|\b(?:per|an?|every|each)\s*,?\s+|每)" + _A_TIME +
                         r"(?![A-Za-z])", re.IGNORECASE)


def _per_its_own(word: str, unit: str, per: str | None) -> bool:
    """Whether a word said after "per" is the point's own: the time of its rate ("per hour"
    of L/h, "per minute" of rpm) or what its unit divides by ("per litre" of mg/L)."""
    if per is not None and _time_of(word) == per:
        return True
    if "/" not in unit:
        return False
    under = unit.rsplit("/", 1)[1].strip()
    symbol = unit_symbol(under) or under.casefold()
    return word == symbol or word in UNIT_SPELLINGS.get(symbol, "").split() or \
        unit_symbol(word) == symbol


def _per_in_name(word: str, own: _Own) -> bool:
    """Whether the point's names say "per" this word: "5 kg per batch" of a "Lime dose per
    batch", "2 per day" of "Filter backwash cycles per day" (review atk67b)."""
    return any(re.search(rf"\bper\s+{re.escape(word)}\b", label, re.IGNORECASE)
               for label in own.labels) if word else False


def _times_said(said: re.Match[str]) -> int:
    """How many times a rate said after a number is per: "t/h/h" two, "rpm/min" two."""
    letters = (said.group("unit") or "").casefold() in _PER_IN_LETTERS
    return int(letters) + int(said.group("first") is not None) + 1


def _times_in(unit: str) -> int:
    """How many times a unit is per: "t/h" one, "rpm/min" two, "°C" none."""
    parts = [p.strip() for p in re.split(r"[/／]", unit.casefold())]
    return int(parts[0] in _PER_IN_LETTERS) + sum(_time_of(p) is not None for p in parts[1:])


#: words after a value that say nothing of its unit ("to 40 % and hold", "40 % now")
_AFTER_A_VALUE = frozenset("and then now please pls for on in at of so thanks thx".split())


def _said_a_unit(words: str) -> bool:
    """Whether words said after a number are a unit ("kg", "kilos", "公斤"; not "within")."""
    return bool(words.strip()) and (bool(unit_ids(words.strip())) or any(
        unit_symbol(w) is not None or unit_ids(w) for w in words.split()))


def _qualified_percent(unit: str | None) -> bool:
    """A per cent of something the config names after the sign ("% solids", "% LEL", "% open"):
    "62 percent" is in it, as "62 %" would be."""
    return unit_symbol(unit or "") is None and (unit or "").lstrip().startswith(("%", "％"))


def _unit_spelled(text: str, point: Point) -> frozenset[str]:
    """The words of the point's own unit said in words of several, as the lexicon knows them
    ("grams per square metre" of a point in g/m²); none where the unit is another."""
    mine = unit_ids(point.unit) if point.unit else frozenset()
    folded_text = text.casefold()
    return frozenset(w for m in lexicon().concepts_of_text(text)
                     if m.kind == "unit" and m.concept.id in mine
                     for w in re.findall(r"[^\W\d_]+", folded_text[m.start:m.end])
                     if " " in folded_text[m.start:m.end].strip())


def _unit_as_written(text: str, toks: list[Token], point: Point) -> set[int]:
    """Where the point's own unit, spelled as its config spells it (a unit the vocabulary may
    not know: "g/min", "t/d"), follows a number: the positions of its tokens."""
    unit = (point.unit or "").strip()
    found = re.search(r"\d\s*(" + re.escape(unit.casefold()) + r")(?![\w/])", text.casefold()) \
        if unit else None
    if found is None:
        return _rate_as_written(text, toks, unit)
    said = text[found.start(1):found.end(1)]
    if unit_symbol(said) != unit_symbol(unit):
        return set()  # "30 kN" of a point in kn (knots): letter case tells them apart
    spelled = [t.raw for t in tokens(unit)]
    n = len(spelled)
    at: set[int] = set()
    for i in range(1, len(toks) - n + 1):
        if toks[i - 1].number is not None and [t.raw for t in toks[i:i + n]] == spelled:
            at.update(range(i, i + n))
    return at


def _rate_as_written(text: str, toks: list[Token], unit: str) -> set[int]:
    """Where the point's own rate follows a number with its time spelled another way ("120
    t/hr", "50 l/hr" of a point in t/h, L/h): the positions of the tokens of what it counts and
    of its time (no time of day, "hr", nor another thing's letter)."""
    if "/" not in unit:
        return set()
    counted, _, per = unit.casefold().rpartition("/")
    mine = _time_of(per)
    said = re.search(r"\d\s*" + re.escape(counted) + r"\s*[/／]\s*([a-z]+)(?![\w/])",
                     text.casefold())
    if mine is None or said is None or _time_of(said.group(1)) != mine:
        return set()
    spelled = [t.raw for t in tokens(counted)]
    n = len(spelled)
    return {j for i in range(1, len(toks) - n)
            if toks[i - 1].number is not None and [t.raw for t in toks[i:i + n]] == spelled
            and toks[i + n].raw == said.group(1) for j in range(i, i + n + 1)}


def _a_flame(point: Point) -> bool:
    """Whether the last word of the switch's name is a burner or flare ("Drum burner",
    "Emergency flare"): what a flame verb may switch, and nothing else ("light the door" is
    no "Furnace door open": review atk56b)."""
    words = [t for t in tokens(point.name) if not t.is_id and t.text not in LIT_ROLES]
    return bool(words) and any(m.concept.id in LIT_THINGS and m.start == 0
                               for m in lexicon().concepts_of_text(words[-1].raw))


def _value(toks: list[Token], own: _Own, point: Point, value: Any,
           text: str = "", initials: Collection[int] = ()) -> Doubt | None:
    """`initials`: where a letter says the point's numbered thing ("T1" of "Tank 1": the
    number after it names the point, `_initials`)."""
    stated: list[tuple[str, Number]] = []  # (as written, value): the numbers that name nothing
    for i, t in enumerate(toks):
        if t.number is None:
            continue
        if point.choices and _in_choice(toks, i, point):
            continue  # "silo two" of a choice "silo_2": a word of the choice, no number to set
        before = toks[i - 1] if i else None
        after = toks[i + 1] if i + 1 < len(toks) else None
        to_value = before is not None and before.raw in ("to", "at", "=")
        if t.groups and before is not None and before.text in own.id_words and \
                _float(t.groups[0]) in own.numbers:
            rest = exact("".join(t.groups[1:]))  # "pump 1 600": pump 1, and 600
            if rest is None:
                return Doubt("unreadable", (t.raw,))
            stated.append((" ".join(t.groups[1:]), rest))
            continue
        beside_thing = any(x is not None and x.number is None and x.text in own.id_words
                           for x in (before, after)) or (
            # "circ 1" of "Circulating pump 1": its own number after a word of its names
            before is not None and before.number is None and before.text in own.texts
            and not t.zh and before.text not in _SWITCH_WORDS | WRITE_VERBS
            and float(t.number) in own.numbers) or (
            # "#1 boiler ID fan", "no. 1 boiler", 1#泵: its own number before a word of its
            # names, where its names number it first
            t.is_id and after is not None and after.number is None and after.text in own.texts
            and float(t.number) in own.numbers and own.numbered_first) or (
            # "102a speed to 50": its own number, with its twin's letter
            after is not None and after.ident and after.text in own.texts
            and float(t.number) in own.numbers) or (
            # "rectifier 1" of "Rect 1 run": after a word its name abbreviates
            before is not None and before.number is None and not t.zh
            and any(len(w) >= 3 and before.text.startswith(w) for w in own.id_words)
            and float(t.number) in own.numbers) or (
            # "T1 DO setpoint" of "Tank 1 …": the letter its thing's word begins with (and
            # no other thing's of that number: a "Transformer 1" makes T1 either, atk67 C1)
            i - 1 in initials) or (
            # "stop the crust breaker on 110": its own number after "on"/"of", of a switch
            # (which takes no number)
            point.kind == "bool" and before is not None and before.raw in ("on", "of")
            and float(t.number) in own.numbers) or (
            # "drop 104's target voltage": its own number, said as the thing's
            after is not None and after.raw == "s" and re.search(
                rf"(?<![\w.]){re.escape(t.raw)}['’]s\b", text) is not None
            and float(t.number) in own.numbers)
        if t.ordinal or (beside_thing and not to_value):
            if float(t.number) not in own.numbers:
                return Doubt("other_thing", (t.shown,))
            continue  # "pump 1", "3号": it names the point
        stated.append((t.shown, t.number))
    # on and off words: those beside the point's names first; else its own ("Valve 2 open")
    left = Counter(dict(own.counts))
    besides = set()
    # (an "on" that says where is no switch word: "stop the defrost on evaporator 1")
    written = toks  # (as said: a choice's words are read among them all, `named_choices`)
    toks = [t for i, t in enumerate(toks) if not preposition_on(toks, i)]
    for t in toks:
        if t.number is None and left[t.text] > 0:
            left[t.text] -= 1
        elif t.number is None:
            besides.add(t.text)
    words = besides if besides & _SWITCH_WORDS else {t.text for t in toks if t.number is None}
    on, off = bool(words & _ON), bool(words & _OFF)
    if len(stated) > 1:
        return Doubt("several", tuple(w for w, _ in stated))
    if point.kind == "bool":
        if stated:
            number = stated[0][1]
            if number not in (0, 1) or on or off:
                return Doubt("several", (stated[0][0],))  # "switch on the beacon at 1"
            unsaid = sense_unsaid(point, {t.text for t in toks}, text)
            if unsaid is not None:
                # "set fan 5 to 1" of "Fan 5 brake"
                return Doubt(sense_problem(point),
                             (sense_shown(point, unsaid, is_chinese(text)),))
            said = bool(number)
        elif (by_state := _state_named(point, words, {t.text for t in toks},
                                       [t.text for t in toks], text)) is not None:
            if isinstance(by_state, Doubt):
                return by_state
            said = by_state  # "close lane 1" of the "Lane 1 closed signal"
        elif on != off:
            said = on
        elif not on and (lit := flame_verb(toks)) is not None and _a_flame(point):
            said = toks[lit].raw in LIGHTS  # "light the flare", "extinguish the pilot" (the
            # router writes only the one switch that is that flame: `RuleRouter.lit`)
        elif not on and (first := next((t for t in toks if t.raw not in _FILLERS_FIRST), None)) \
                is not None and first.text in own.acts and first.number is None and \
                not {t.text for t in toks if t.raw not in _FILLERS_ACT} & besides:
            # "defrost evap 2": what the point does, asked for first; with nothing but its own
            # words ("defrost evap 2 status", "... show me" ask how it is)
            said = True
        else:
            return Doubt("not_stated", tuple(sorted(words & _SWITCH_WORDS)))
        return None if isinstance(value, bool) and said == value else \
            Doubt("not_stated", (str(value),))
    if point.kind == "string":
        heard = {t.text for t in toks}
        if point.choices:
            # a choice is stated when exactly one of them is named (in any of its names) and
            # it is the value: a map's names and nothing else ("to 1" names no mode)
            named = named_choices(point, written, text)
            stopping = besides & (_OFF | _ENDING) - _choice_words(point) | {
                f"{t.raw} down" for t, after in pairwise(toks)
                if t.raw in _POWER and after.raw == "down"} | {
                w for w in _ENDING_ZH if w in text
                and not any(w in said for _, said in spellings(point))}  # 退出 of 投入/退出
            if not stated and named == {value} and stopping:
                # "stop CIP on the filler", "灌装机停止清洗", "disable manual": the choice named
                # is what is to end, not what to set
                return Doubt("several", (str(value), *sorted(stopping)))
            to = min((i for i, t in enumerate(toks) if t.raw in ("to", "into") and not t.zh),
                     default=None)
            if not stated and named == {value} and to is not None and \
                    value not in named_choices(point, toks[to + 1:], "", valued=True):
                # "change Q control over to power factor mode": the choice named is the one it
                # is moved from; what it is moved to is no choice said
                return Doubt("not_stated", (str(value),))
            if not stated and named == {value}:
                return None
            return Doubt("several" if len(named) > 1 else "not_stated",
                         tuple(sorted(named)) if len(named) > 1 else (str(value),))
        wanted = {t.text for t in tokens(str(value)) if t.number is None}
        if not stated and wanted and wanted <= heard:
            return None
        return Doubt("not_stated", (str(value),))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return Doubt("not_stated", (str(value),))
    if stated and besides & _OFF:
        return Doubt("several", (stated[0][0], *sorted(besides & _OFF)))  # "to 1200 stop"
    if stated:
        return None if float(stated[0][1]) == float(value) else \
            Doubt("not_stated", (stated[0][0],))
    if value == 0 and off and not on:
        return None  # "stop pump 1", "close vent 1": to zero (the rules allow it per point)
    return Doubt("not_stated", ())


def _state_named(point: Point, words: set[str], heard: set[str], order: list[str],
                 text: str) -> bool | Doubt | None:
    """The value the verb of the state a switch is named by gives (`rules.state_named`), or
    the doubt of words that say two values, or on/off of a thing its state names, or of a
    thing whose switch is named by an action the words do not say ("turn on fan 5" of "Fan 5
    brake": the doubt names the action)."""
    try:
        return state_named(point, words, heard, order, text)
    except StateConflict as conflict:
        if conflict.sense is not None and conflict.args[0] is None:
            return Doubt(sense_problem(point),
                         (sense_shown(point, conflict.sense, is_chinese(text)),))
        # a verb and an on/off word that say two values; or a verb that says no value of a
        # switch named by what it does ("kill the burner" of "Burner inhibit")
        return Doubt("several" if conflict.args and conflict.args[0] is not None
                     else "not_stated", tuple(sorted(words & _SWITCH_WORDS)))


#: words that end what they are said of ("pause CIP on the filler"): a choice said with one is
#: no choice to set
_ENDING = frozenset("pause suspend halt end finish exit leave quit abort cancel interrupt "
                    "skip".split())
#: "power down the chiller on standby" ends it, whatever its mode (atk27)
_POWER = frozenset(("power", "powered", "powering"))
_ENDING_ZH = ("退出", "结束", "完毕", "解除", "取消", "停用", "禁用")
_FILLERS_FIRST = frozenset(("please", "kindly", "just", "now"))
_FILLERS_ACT = _FILLERS_FIRST | {"the", "a", "an", "again"}
_ON = ON_WORDS | {"true"}
_OFF = OFF_WORDS | {"false"}
_SWITCH_WORDS = _ON | _OFF
#: the states of a coil a raw write may also say ("set coil 2 high")
_LEVELS = frozenset(("high", "low"))


def _float(digits: str) -> float | None:
    number = exact(digits)
    return None if number is None else float(number)


def gated(text: str, point: Point, value: Any, profiles: Profiles | None = None,
          toks: list[Token] | None = None) -> Action | None:
    """None when the write may go on; else the question back that replaces it."""
    found = doubt(text, point, value, profiles, toks)
    if found is None:
        return None
    zh = is_chinese(text)
    label = point.label("zh" if zh else "en")
    return respond("not_understood", unreadable=[printable(w) for w in found.words],
                   value_problem=found.problem,
                   text=gate_question(found.problem, found.words, label, point.unit or "",
                                      _example(point, zh), zh=zh))


def gated_raw(text: str, example: str, device: str = "",
              values: tuple[Any, ...] = ()) -> Action | None:
    """None when a raw register write may go on; else the question back that replaces it."""
    found = doubt_raw(text, device, values)
    if found is None:
        return None
    zh = is_chinese(text)
    return respond("not_understood", unreadable=[printable(w) for w in found.words],
                   value_problem=found.problem,
                   text=gate_question(found.problem, found.words, "the register", "",
                                      example, zh=zh))


def _example(point: Point, zh: bool) -> str:
    """A plain command for the point, with a value inside its range."""
    label = point.label("zh" if zh else "en")
    if point.kind == "bool":
        return f"打开{label}" if zh else f"switch on {label}"
    if point.kind == "string" and point.choices:
        return f"把{label}设为{point.choices[0]}" if zh else f"set {label} to {point.choices[0]}"
    lo = point.min if point.min is not None else 0.0
    hi = point.max if point.max is not None else lo + 100
    value = lo + (hi - lo) * 0.5
    if point.kind == "int" or value == int(value):
        value = round(value)
    shown = str(value) if isinstance(value, int) else f"{value:.1f}"
    unit = f" {point.unit}" if point.unit else ""
    return f"把{label}设为{shown}{point.unit or ''}" if zh else f"set {label} to {shown}{unit}"


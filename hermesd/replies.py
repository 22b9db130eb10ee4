"""The words of every answer, composed by the daemon from the action and its result.

No reply is ever taken from a model: each is built here from facts (the point, its value, its
age, the error), so a reply can never claim an effect that did not happen. Stale values say so
and why, in words. Replies follow the language of the question (English, or Chinese when the
question was written in Chinese).
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any

from hermesd import value_maps
from hermesd.cache import Judgement
from hermesd.config.model import Point
from hermesd.registry import format_value


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _age(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _age_zh(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f}秒"
    if seconds < 5400:
        return f"{seconds / 60:.0f}分钟"
    return f"{seconds / 3600:.1f}小时"


def _name(point: Point, zh: bool) -> str:
    """The point's name in the language of the question: its Chinese name when the config gives
    one (`names.zh`), else its own name — never a translation we guessed."""
    return point.label("zh" if zh else "en")


def _shown(point: Point, value: Any, zh: bool, *, exact: bool = False) -> str:
    """A value as a person reads it, in the language of the question (开/关 for on/off);
    `exact` for a value written (every digit: 30.00000000001 is not shown as 30)."""
    if zh and (point.kind == "bool" or isinstance(value, bool)):
        return "开" if value else "关"
    if point.value_map and isinstance(value, str):
        if value not in point.choices:  # a raw value the map does not name, as read
            return f"{value}（不在取值表中）" if zh else \
                f"{value} (none of {', '.join(point.choices)})"
        return str(value_maps.shown(point, value, "zh" if zh else "en"))
    return format_value(point, value, exact=exact)


def read_reply(point: Point, j: Judgement, zh: bool = False) -> str:
    if not (zh or j.stale or point.value_map):  # (most reads: what the rest says of them)
        return f"{point.label('en')} is {format_value(point, j.reading.value)}."
    value = _shown(point, j.reading.value, zh)
    if zh:
        if not j.stale:
            return f"{_name(point, zh)}：{value}。"
        when = time.strftime("%H:%M:%S", time.localtime(j.reading.ts))
        return f"{_name(point, zh)}的最后已知值为{value}（{when}，{_age_zh(j.age)}前；数据过时：{j.why}）。"
    if not j.stale:
        if point.kind == "bool":
            return f"{_name(point, zh)} is {value}."
        return f"{_name(point, zh)} is {value}."
    if j.why.startswith(f"{point.device} offline"):
        # "Boiler 3 temperature: PLC plc1 offline since 09:14:02; last value 523.4 °C, 41 s old."
        noun = DEVICE_NOUN.get(point.driver, "device")
        return f"{_name(point, zh)}: {noun} {j.why}; last value {value}, {_age(j.age)} old."
    when = time.strftime("%H:%M:%S", time.localtime(j.reading.ts))
    if j.reading.retained and j.why.startswith("retained by the broker"):
        # its time is when the broker's copy arrived, not when it was true: no "1 s old"
        return (f"{_name(point, zh)}: last known value {value}, of unknown age (stale: "
                f"{j.why}; the copy arrived at {when}).")
    return (f"{_name(point, zh)}: last known value {value} at {when}, {_age(j.age)} old "
            f"(stale: {j.why}).")


def read_many_reply(items: list[tuple[Point, dict[str, Any]]], zh: bool = False) -> str:
    """One sentence for a read of several points: each point's value in the order asked, a
    stale one with its age and why, one that could not be read saying so."""
    parts = []
    for point, result in items:
        name = _name(point, zh)
        if result.get("quality") == "error":
            why = str((result.get("error") or {}).get("message", ""))
            parts.append(f"{name}无法读取（{why}）" if zh else f"{name} could not be read ({why})")
            continue
        value = _shown(point, result["value"], zh)
        age = float(result.get("age_s") or 0.0)
        if result.get("quality") == "stale":
            why = result.get("stale_reason", "")
            parts.append(f"{name}：{value}（{_age_zh(age)}前的值，数据过时：{why}）" if zh
                         else f"{name} was {value} {_age(age)} ago (stale: {why})")
        else:
            parts.append(f"{name}：{value}" if zh else f"{name} is {value}")
    if zh:
        return "；".join(parts) + "。"
    if len(parts) == 1:
        return parts[0] + "."
    return ", ".join(parts[:-1]) + " and " + parts[-1] + "."


#: what people call a device of each driver, in a stale reply
DEVICE_NOUN = {"modbus": "PLC", "serial": "instrument", "mqtt": "device", "exec": "device"}


def write_reply(point: Point, value: Any, confirmed: bool | None, zh: bool = False,
                actual: Any = None) -> str:
    shown = _shown(point, value, zh, exact=True)
    if zh:
        if confirmed is not False:
            return f"已将{_name(point, zh)}设为{shown}。"
        back = "" if actual is None else f"，设备读回为{_shown(point, actual, zh)}"
        return f"已发送：{_name(point, zh)}设为{shown}，但设备尚未确认{back}。"
    if confirmed is False:
        back = "" if actual is None else f"; it reads back {_shown(point, actual, zh)}"
        return f"Sent {_name(point, zh)} = {shown}, but the device has not confirmed it yet{back}."
    return f"{_name(point, zh)} set to {shown}."


#: what a tool's own reason may end with already (the Modbus tool's): said once, not twice
_TOOL_UNSURE = "; it may or may not have taken effect"


def unsure_reason(why: str) -> str:
    """The error message of a write that may or may not have been done, from its reason."""
    return f"{why.removesuffix(_TOOL_UNSURE)}; the write may or may not have taken effect"


def unsure_write_reply(point: Point, value: Any, why: str, zh: bool = False) -> str:
    """A write sent to its tool that got no answer in time: it may or may not have been done."""
    shown = _shown(point, value, zh, exact=True)
    why = why.removesuffix(_TOOL_UNSURE)
    if zh:
        return (f"不确定是否已将{_name(point, zh)}设为{shown}：{why}；该写入可能已生效，也可能未生效。"
                f"请读取{_name(point, zh)}确认。")
    return (f"Not sure whether {_name(point, zh)} was set to {shown}: {why}; the write may or "
            f"may not have taken effect. Read {_name(point, zh)} to see.")


def dry_run_reply(action: str, point: Point | None, value: Any, zh: bool = False, *,
                  points: list[Point] | None = None) -> str:
    if points:
        names = [_name(p, zh) for p in points]
        if zh:
            return f"演练：将读取{'、'.join(names)}。"
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"Dry run: would read {listed}."
    if point is None:
        return "Dry run: nothing would be done." if not zh else "演练：不会执行任何操作。"
    if action == "write":
        shown = _shown(point, value, zh, exact=True)
        return f"Dry run: would set {_name(point, zh)} to {shown}; all checks pass." if not zh \
            else f"演练：将把{_name(point, zh)}设为{shown}；所有检查均通过。"
    return f"Dry run: would read {_name(point, zh)}." if not zh else f"演练：将读取{_name(point, zh)}。"


RESPOND = {
    "greeting": ("Hello, I am hermesd, the gateway of {node}. Ask me for a value "
                 "(\"what is the boiler 3 temperature\") or to set one.",
                 "你好，我是{node}的网关 hermesd。可以问我数值，或让我设置数值。"),
    "thanks": ("You're welcome.", "不客气。"),
    "not_understood": ("Sorry, I did not understand that. Ask for a point by name, e.g. "
                       "\"read {example}\".",
                       "抱歉，我没有听懂。请说出测点名称，例如“读取{example}”。"),
    "unknown_point": ("I don't know {asked}; there is no such point here.",
                      "我不知道{asked}，这里没有这个测点。"),
    "not_allowed": ("I can't do that: it is not something I am allowed to do.",
                    "我不能这样做：这不在允许范围内。"),
    "out_of_scope": ("I can only read and set the points of this plant; that is outside "
                     "what I do.", "我只能读取和设置本厂的测点；这超出了我的范围。"),
}


def respond_reply(reason: str, *, node: str, example: str, asked: str = "that",
                  text: str | None = None, zh: bool = False) -> str:
    """The words of a `respond`. `text`, when given, was composed by the daemon itself (a
    configured intent's reply, a question back from the rules); the model never gives one."""
    if text:
        return text
    template = RESPOND.get(reason, RESPOND["not_understood"])[1 if zh else 0]
    return template.format(node=node, example=example, asked=asked or "that")


#: a question back when the words give no one value: (English, Chinese) by problem
VALUE_QUESTIONS = {
    "unreadable": ("I could not read the value {words}; nothing was changed. Say it once, "
                   "e.g. “{to}{example}”.",
                   "我没能读懂数值{words}，未做任何更改。请只说一个数值，例如“{to}{example}”。"),
    "several": ("I heard more than one value ({words}); nothing was changed. Say the one you "
                "mean once, e.g. “{to}{example}”.",
                "我听到了不止一个数值（{words}），未做任何更改。请只说您要的那一个，例如“{to}{example}”。"),
    "correction": ("I heard a correction ({words}); nothing was changed. Say the command again "
                   "with just the value you mean, e.g. “{to}{example}”.",
                   "我听到了更正（{words}），未做任何更改。请重新说一遍，只说您要的数值，例如“{to}{example}”。"),
    "relative": ("I set values, not changes ({words}); nothing was changed. Say the value to "
                 "set, e.g. “{to}{example}”.",
                 "我只能设定数值，不能按增减量调整（{words}），未做任何更改。请说出要设定的值，例如“{to}{example}”。"),
    "negation": ("I heard {words}, so nothing was changed. Say what to set, e.g. “to "
                 "{example}”.",
                 "我听到了{words}，所以未做任何更改。请说出要设定的值，例如“{to}{example}”。"),
}


#: the questions back of the write gate (`router.write_gate`): the words did not plainly ask for
#: one write, now; {point} is the point the write would have gone to, {example} a plain command
GATE_QUESTIONS = {
    "when": ("I heard a time or a condition ({words}); I only act now, so {point} was not "
             "changed. Say it when it should happen, e.g. “{example}”.",
             "我听到了时间或条件（{words}）；我只执行当下的命令，未更改{point}。请在需要时直接说，例如“{example}”。"),
    "question": ("That sounds like a question or a statement ({words}), so {point} was not "
                 "changed. To change it, say e.g. “{example}”.",
                 "这听起来像是提问或陈述（{words}），所以未更改{point}。如需更改，请说例如“{example}”。"),
    "approximate": ("I set exact values, not approximate ones or bounds ({words}); {point} was "
                    "not changed. Say the value, e.g. “{example}”.",
                    "我只设定确切的数值，不接受约数或范围（{words}），未更改{point}。请说出确切数值，例如“{example}”。"),
    "several_targets": ("I change one point at a time ({words}); nothing was changed. Name "
                        "each one in its own command, e.g. “{example}”.",
                        "我一次只更改一个测点（{words}），未做任何更改。请逐个下达命令，例如“{example}”。"),
    "unit": ("{point} is set in {unit}, and I heard {words}; nothing was changed. Say the "
             "value in {unit}, e.g. “{example}”.",
             "{point}的单位是{unit}，而我听到的是{words}，未做任何更改。请用{unit}说出数值，例如“{example}”。"),
    "unexplained": ("I am not sure {words} is said of {point}, so nothing was changed. Say "
                    "it with the point's name, e.g. “{example}”.",
                    "我不确定{words}指的是{point}，未做任何更改。请用测点名称说，例如“{example}”。"),
    "other_thing": ("{words} names something other than {point}; nothing was changed. Say "
                    "which one you mean, e.g. “{example}”.",
                    "{words}指的不是{point}，未做任何更改。请说明您指的是哪一个，例如“{example}”。"),
    "which": ("There are several of {words}, and I did not hear which one; nothing was "
              "changed. Say its number, e.g. “{example}”.",
              "{words}不止一个，我没有听到是哪一个，未做任何更改。请说出编号，例如“{example}”。"),
    "sense": ("{point} is a switch named by what it does when on ({words}), and I did not hear "
              "that said; on or off of the thing itself may mean the opposite, so nothing was "
              "changed. Say it with its own word, e.g. “{example}”.",
              "{point}是按其接通时的动作（{words}）命名的开关，我没有听到这个动作；对设备本身说开或关可能正好相反，"
              "所以未做任何更改。请用它自己的词说，例如“{example}”。"),
    "part": ("{point} is switched by its own name ({words}), a part of what you named, and I "
             "did not hear that said; on or off of the rest is not on or off of it, so nothing "
             "was changed. Say it with its name, e.g. “{example}”.",
             "{point}要用它自己的名称（{words}）来开关，它只是您所说设备的一部分，我没有听到这个名称；"
             "对设备其余部分说开或关不等于开关它，所以未做任何更改。请用它的名称说，例如“{example}”。"),
    "switchgear": ("{point} is switchgear: opening it switches off and closing it switches on, "
                   "the opposite of a valve, so I did not take {words} as on or off and nothing "
                   "was changed. Say on or off, e.g. “{example}”.",
                   "{point}是开关设备：断开即断电，合上即通电，与阀门相反，所以我没有把“{words}”当作开或关，"
                   "未做任何更改。请说开或关，例如“{example}”。"),
    "not_stated": ("I did not hear the value for {point} said once and plainly; nothing was "
                   "changed. Say it, e.g. “{example}”.",
                   "我没有听清要给{point}设定的数值，未做任何更改。请明确说出，例如“{example}”。"),
}


def gate_question(problem: str, words: tuple[str, ...], point: str, unit: str, example: str,
                  zh: bool = False) -> str:
    """The question back for a write the gate stopped, naming the words that stopped it."""
    quoted = ("、" if zh else ", ").join(f"“{w}”" for w in map(printable, words)) or "—"
    if problem in GATE_QUESTIONS:
        template = GATE_QUESTIONS[problem][1 if zh else 0]
        return template.format(words=quoted, point=point, unit=unit or "its unit",
                               example=example)
    return value_question(problem, words, example, zh, whole=True)


def choice_question(point: Point, zh: bool = False) -> str:
    """The answer to a write of a point of choices that names none of them (or several)."""
    label = _name(point, zh)
    names = [str(value_maps.shown(point, c, "zh" if zh else "en")) for c in point.choices]
    if zh:
        return (f"{label}可设为{'、'.join(names)}；未做任何更改。请说其中一个，例如"
                f"“把{label}设为{names[0]}”。")
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return (f"{label} takes {listed}; nothing was changed. Say one of them, e.g. "
            f"“set {label} to {names[0]}”.")


def value_question(problem: str, words: tuple[str, ...] | list[str], example: str,
                   zh: bool = False, *, whole: bool = False) -> str:
    """The question back for a write whose words give no one value, naming those words.
    `example`: a value ("450 °C"), or with `whole` a whole command ("set … to 450 °C")."""
    quoted = ("、" if zh else ", ").join(f"“{w}”" for w in map(printable, words))
    template = VALUE_QUESTIONS.get(problem, VALUE_QUESTIONS["unreadable"])[1 if zh else 0]
    to = "" if whole else "设为" if zh else "to "
    return template.format(words=quoted, example=example, to=to)


def printable(word: str) -> str:
    """Words of a request as an answer may repeat them: short, and every invisible or
    unencodable character (a zero-width space, a lone surrogate) shown as its escape."""
    word = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf", "Cs") else c
                   for c in word)
    return word if len(word) <= 40 else word[:37] + "..."


#: the daemon's error messages that people meet most, in Chinese (others keep their English)
_ZH_ERRORS = (
    (re.compile(r"(.+) \((\S+)\) is read-only"), "{0}（{1}）是只读的，不能设置"),
    (re.compile(r"role (\S+) may not write (\S+)"), "角色 {0} 无权写入 {1}"),
    (re.compile(r"role (\S+) may not read points"), "角色 {0} 无权读取测点"),
    (re.compile(r"(.+) is outside the allowed range of (.+) \((.+)\)"),
     "{0} 超出了{1}的允许范围（{2}）"),
    (re.compile(r"the language model did not answer within ([\d.]+) s.*"),
     "语言模型未能在 {0} 秒内回答，已停止并正在重启"),
    (re.compile(r"the language model is busy.*"), "语言模型正忙，请稍后再试"),
    (re.compile(r"hermesd is busy.*"), "系统繁忙，请稍后再试"),
)


def error_reply(message: str, zh: bool = False) -> str:
    if not zh:
        return f"Could not do that: {message}"
    for pattern, template in _ZH_ERRORS:
        match = pattern.fullmatch(message)
        if match:
            return "无法完成：" + template.format(*match.groups()) + "。"
    return f"无法完成：{message}"


def call_reply(tool: str, action: str, args: dict[str, Any], value: Any) -> str:
    """The words for a direct tool call's result: registers as PLC people name them."""
    if not isinstance(value, dict) or "registers_text" not in value:
        return f"{tool}.{action} done."
    where = f"{value.get('device')} {value['registers_text']}"
    raw = value.get("registers") or value.get("bits") or []
    shown = ", ".join(("on" if v else "off") if isinstance(v, bool) else str(v) for v in raw)
    if "confirmed" in value:
        back = "confirmed" if value["confirmed"] else f"not confirmed: it reads back {shown or '?'}"
        return f"Wrote {where}; {back}."
    decoded = value.get("value", value.get("value_text"))
    if decoded is not None and args.get("type"):
        return f"{where} = {shown} ({decoded} as {args['type']})."
    return f"{where} = {shown}."

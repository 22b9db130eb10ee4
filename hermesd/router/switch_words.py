"""On/off writes: whether the words name the switch itself, part of the write gate
(`write_gate.doubt`).

A command says on or off of a thing; a switch is written only where its name says no more than
that thing (`unsaid_part`): every word of one of its names is said, means what a word said means,
qualifies a word said, is the switch's own ("motor", "solenoid"), says which ("main"), or is the
machine of a function said. What is left names a part ("Tank 2 heater"), an action ("Valve 3
shutdown solenoid") or another machine ("Feed pump boiler 1" of "stop boiler 1"), and the write
is asked back. Chinese names are held to the Chinese said the same way (`_unsaid_part_zh`).
Switchgear opens to switch off (`switchgear`): "open"/"close" of it is asked back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hermesd.config.model import Point
from hermesd.replies import is_chinese
from hermesd.router.concepts import concepts_of_text, simplified, unaccented
from hermesd.router.doubts import Doubt, folded
from hermesd.router.normalize import Token, content, tokens
from hermesd.router.numbers import chinese, is_cjk
from hermesd.router.profiles import Profiles, stems_match
from hermesd.router.rules import point_sense, unpaired
from hermesd.router.unit_parts import PARTS, RUNNING_UNITS
from hermesd.router.vocabulary import OFF_WORDS, ON_WORDS

#: the words of on and off
_ON_OFF = ON_WORDS | OFF_WORDS | {"true", "false"}


#: words of a switch's name that are the switch of its thing, not a part of it ("Pump 1 motor
#: run", "Valve 3 solenoid", "Feed pump 1 VFD")
_OWN_SWITCH = frozenset("""
    motor motors drive drives run running command cmd starter contactor solenoid actuator
    switch power enable enabled control ctrl relay output coil request req vfd vsd inverter
    circuit status onoff unit system skid package equipment dol soft
    ein befehl kommando comando commande mando marcha marche marcia
""".split())  # (the last: "Pumpe1.Ein", "Comando bomba 2", "B_Desc_01.Marcha"; never an off
# word, "Aus" is one)


#: modifiers that say which of a thing's machines, not what it does
_WHICH = frozenset(f"modifier.{m}" for m in """
    main middle inner outer indoor outdoor
""".split())


#: states that are what a switch does to its thing, said before the thing's name
_ACTING = frozenset(f"state.{m}" for m in "open closed reverse forward stopped off on".split())


#: actions on a thing other than running it, and words of the same, in English and the
#: languages plant names are written in with the verb first ("Rearme bomba", "Quittierung
#: Pumpe", "Forçage pompe"; the lexicon's action words are no concept of a name, so `acting`
#: finds these apart): a switch named by one before its thing ("Reset pump", "Halt pump",
#: "Isolate pump") does that, not run it; a machine named by its function ("Drain pump",
#: "Dosing pump", "Flush pump") runs
_ACTIONS_ON = frozenset(f"action.{a}" for a in """
    reset disable enable acknowledge calibrate pause resume schedule stop
""".split())
_DONE_TO = frozenset("""
    override overrides inhibit inhibited bypassed forced force forcing test testing lockout
    manual permissive interlock release
    rearme reposicion bloqueo desbloqueo confirmacion reconocimiento habilitacion inhibicion
    prueba reversa inversion automatico forzado
    acquit acquittement rearmement reinitialisation forcage verrouillage deverrouillage
    validation autorisation inhibition essai automatique manuel
    quittierung quittieren rucksetzen freigabe sperre verriegelung entriegelung hand
    handbetrieb automatik
    ripristino riarmo blocco sblocco abilitazione inibizione tacitazione forzatura prova
    manuale
    reconhecimento bloqueio desbloqueio habilitacao inibicao teste
    aus apagar desligar desliga spegnimento spegni eteindre
""".split())


#: the verbs that open or start a switch's name begins with in languages that write the
#: verb first, and the English verb each is ("Abrir válvula", "Arranque bomba", "Öffnen
#: Ventil"): said only when that verb is said, as "Open valve" is (review atk50: "close the
#: valve" wrote False to an "Abrir válvula", "stop the pump" to an "Arranque bomba")
_VERBS_FIRST = {
    **dict.fromkeys("abrir apertura ouvrir ouverture offnen oeffnen apri aprire abertura".split(),
                    "open"),
    **dict.fromkeys("arranque arrancar ligar liga avvio avviare demarrer demarrage starten "
                    "einschalten encender accionar partida".split(), "start"),
}
#: ...and those that close or stop, which setting does (a "Cerrar válvula" set on closes):
#: asked back whatever is said, as no on/off of the thing says which way they go
_STOPPING_FIRST = frozenset("""
    cerrar cierre fermer fermeture schliessen chiudi chiudere chiusura fechar fechamento
    parar paro parada arret arreter arresto fermare stopp stoppen ausschalten
""".split())


#: machines as Spanish, Portuguese, French and Italian name them, whose qualifiers follow
#: them ("Bomba de vaciado 9"), unaccented
_NOUN_FIRST = frozenset("""
    bomba bombas pompe pompes pompa valvula valvulas vanne vannes valvola valvole
    ventilador ventiladores ventilateur ventilateurs ventilatore ventilatori
    compresor compresseur compressore soplante soplador surpresseur soffiante soprador
    agitador agitateur agitatore mezclador melangeur miscelatore misturador batidora
    cinta convoyeur nastro transportador transportadora tornillo vis coclea rosca
    molino moulin mulino moinho caldera chaudiere caldaia caldeira horno forno
    quemador bruleur bruciatore queimador filtro filtre tolva tremie tramoggia
    deposito cuve serbatoio tanque reservatorio enfriador refroidisseur raffreddatore
    resfriador secador secheur essiccatore centrifuga centrifugeuse decantador decanteur
    prensa presse pressa resistencia resistenza calentador rechauffeur aquecedor
    riscaldatore extracteur estrattore exaustor moteur motore
""".split())  # (none an English word: "motor", "decanter" and "extractor" name English ones)


#: the words of running a switch's name may begin with in those languages ("Marcha bomba 2")
_RUN_FIRST = frozenset("marcha marche marcia arranque avvio".split())


#: every word of a name before its thing that says no run switch (`acting`)
_NOT_RUN_WORDS = _DONE_TO | _STOPPING_FIRST | frozenset(_VERBS_FIRST)


#: machines switched on and off themselves, which name no other machine they are said before
#: ("Feed pump boiler 1" is a pump): a unit's machines, and what drives one
_ACTORS = PARTS | frozenset(f"thing.{m}" for m in
                            "motor compressor vfd soft_starter actuator".split())


#: machines that move a medium: "start the cooling water" starts its pump ("stop the
#: compressed air" is no air dryer, "turn on lube oil" no lube oil heater)
_MOVERS_OF_LIQUID = frozenset(("thing.pump",))
_MOVERS_OF_GAS = frozenset(f"thing.{m}" for m in "fan blower compressor".split())
#: ...("stop cooling water" is no "Cooling water fan")
_GASES = frozenset(f"medium.{m}" for m in """
    air compressed_air combustion_air exhaust_air outside_air mixed_air flue_gas natural_gas
    biogas nitrogen oxygen_gas co2_gas hydrogen argon lpg steam
""".split())
#: plant units a machine named before them is a part of ("Barring gear turbine 1", "Dryer
#: compressor 2", "Cooler kiln 2")
_UNITS = RUNNING_UNITS | frozenset(f"thing.{m}" for m in """
    filter heat_exchanger thickener_mining hopper tank reactor silo
""".split())


#: words of a name that say which of a thing's machines by where it is
_SIDES = frozenset("left right".split())


#: what signals an action rather than doing it ("Pump 22 start horn")
_SIGNALS = frozenset(("thing.alarm_device", "thing.light"))


#: what drives a thing that opens and closes, either way
_MOTORS = frozenset("motor motors drive drives starter vfd vsd inverter".split())


#: ...in Chinese, after a door, gate or valve (8号门电机: 关闭8号门 stops its motor)
_MOTORS_ZH = ("电动机", "电机", "马达", "驱动", "变频器", "启动器")


#: what opens a valve, said after it (3号阀执行器: the valve switched; a window's is not)
_ACTUATORS_ZH = ("电动执行机构", "执行机构", "执行器", "电磁阀")
_OPENED_ZH = ("门", "阀", "闸", "窗", "板", "帘", "叶")


#: words before "open" that say a valve opens unpowered ("Valve 3 normally open solenoid",
#: "Valve 3 fail open solenoid", "spring to open")
_INVERTED = frozenset("normally fail failsafe spring".split())


#: what may follow the state a switch is named by ("Valve 8 open command")
_ASKING = frozenset(("command", "cmd", "request", "req"))


#: what parts a name in a tag list ("Close solenoid - Valve 8", "Brake, Hoist 9")
_NAME_BREAK = re.compile(r"\s[-\u2013\u2014]\s|[,;:/()\[\]|]")


def _inverted(point: Point) -> tuple[str, ...]:
    """The words that say a valve (or door) opens unpowered ("normally open", "fail open",
    "spring to open", "NO valve 3", "energise to close", 常开, 通电关闭): its solenoid's on is
    no open. Not a switch named by the action ("Damper 2 fail open": a command to fail it
    open, which its own words set)."""
    for label in (point.name, *point.aliases):
        words = [t.raw for t in tokens(label)]
        valve = any(w in _FLOW | _DOORS or w in ("solenoid", "actuator") for w in words)
        if not valve:
            continue
        for i, w in enumerate(words):
            state = next((x for x in words[i + 1:i + 3] if x != "to"), "")
            if w in _INVERTED and state in ("open", "opened", "opening", "safe"):
                if words[-1] == state and w == "fail":
                    continue  # ("Damper 2 fail open": named by the action)
                return (w, state)
            if w == "no" and re.search(rf"\b{w}\b", label, re.IGNORECASE) and \
                    label.strip()[:2].isupper():
                return (w,)
    for said in (point.description or "", point.name, *point.aliases, *point.names.values()):
        text = folded(said).casefold().strip()
        found = _OPENS_UNPOWERED.search(text)
        if found and not (said != point.description and found.group(0).startswith("fail")
                          and found.end() == len(text)):  # ("Damper 2 fail open": an action)
            return (found.group(0),)
    return ()


def opens_unpowered(point: Point) -> str:
    """How a valve's (or door's) name or description says it opens unpowered ("normally
    open", 常开), or "" (`_inverted`): on is no open for it."""
    return " ".join(_inverted(point))


#: how a description or name says a valve opens unpowered, or shuts powered
_OPENS_UNPOWERED = re.compile(
    r"normally[\s-]open|fail[\s-]*(?:safe[\s-]*)?open|spring[\s-]*(?:to[\s-]*|return[\s,]*"
    r"(?:fail[\s-]*)?)?open|energi[sz]e[ds]?\s+to\s+close|de-?energi[sz]e[ds]?\s+to\s+open|"
    r"air[\s-]+to[\s-]+close|\batc\b|closes?\s+when\s+(?:energi[sz]ed|powered)|"
    r"opens?\s+on\s+(?:loss\s+of\s+(?:power|air|signal)|power\s+fail)|"
    r"常开|通电关|得电关|断电开|失电开|失电打开|断电打开|气关|故障开")


#: a number with a letter ("Pump 1A", "Pump 1-A", "Pump 1 A": one of 1A and 1B)
_LETTERED = re.compile(r"(?<![\w.])(\d+)[\s-]?([A-Za-z])(?![\w-])")


def lettered_unsaid(text: str, point: Point) -> Doubt | None:
    """The letter of a point's number ("Pump 1A", one of 1A and 1B) that the command does not
    say with it ("start pump 1", 启动1号泵)."""
    said = re.sub(r"(\d)[\s-]([A-Za-z])(?![\w-])", r"\1\2", folded(text))
    for label in (point.name, *point.aliases):
        found = _LETTERED.search(label)
        if found is None or re.search(rf"(?<!\d){found.group(1)}{found.group(2)}(?![a-z])",
                                      said, re.IGNORECASE):
            return None
        alone = rf"(?<![\w.-]){found.group(2)}(?![\w-])"
        if re.search(alone, label[found.end():], re.IGNORECASE) and (
                re.search(alone, said, re.IGNORECASE)
                or any(t.ident and t.text == found.group(2).casefold() for t in tokens(text))):
            return None  # "HS-5001B Hydraulic pump B run": "hydraulic pump B" says its letter
    found = _LETTERED.search(point.name)
    return Doubt("which", (found.group(0),)) if found else None


def _an_action_unsaid(doubt: Doubt) -> bool:
    """Whether a word a switch's name says and a command did not is an action or a state
    ("shutdown", "stop", "purge", "reverse"), which tells what the switch does."""
    return any(len(w) > 3 and (w in ON_WORDS | OFF_WORDS or unaccented(w) in _NOT_RUN_WORDS or any(
        m.concept.kind in ("action", "state") and m.start == 0 and m.end == len(w)
        for m in concepts_of_text(w))) for w in doubt.words)  # (not the "up" of "Make-up")


def _english_said(toks: list[Token]) -> bool:
    """Whether a command says an English word (of two letters or more)."""
    return any(not t.zh and t.raw.isascii() and t.raw.isalpha() and len(t.raw) > 1
               for t in toks)


def unsaid_part(text: str, toks: list[Token], point: Point,
                 profiles: Profiles | None, *, as_english: bool = False) -> Doubt | None:
    """On/off of a thing is on/off of a switch only where the switch's name says no more than
    that thing: each of its words is said (or a word of the same meaning, or its initials),
    qualifies a word or number said after it ("Hot oil circulation pump 1" of "start pump 1")
    and is no action ("Closing coil Valve 4"), is the switch's own ("motor", "run",
    "solenoid", "system"), says which ("main"), is a tag ("M1"), is the state it is named by,
    last ("Valve 8 open" of "close valve 8"), or is the machine of a function said ("Caustic
    dosing pump" of "start caustic dosing"). What is left names a part or an action the
    command did not: "Valve 3 shutdown solenoid", "Tank 2 heater", "Feed pump - Boiler 1" of
    "stop boiler 1". Any one of the switch's English names that says no more passes; a switch
    named by what it does is the rules' to hear (`state_named`)."""
    if point.kind != "bool":
        return None
    inverted = _inverted(point)
    if inverted and not {t.text[:8] for t in toks} & {"energise", "energize", "deenergi"}:
        # on or off of a valve that opens unpowered ("Valve 3 normally open solenoid"): on
        # may close it; only "energise" says which
        return Doubt("sense", inverted)
    sense = point_sense(point)
    if sense is not None and not sense.thing:
        # named by what it does, which the rules hear (`state_named`); but what follows that
        # word names a part: "start pump 22" of a "Pump 22 start horn", "... start bypass"
        return None if is_chinese(text) else _after_the_action(point, sense.word, profiles)
    if is_chinese(text) and not as_english:
        zh = _unsaid_part_zh(text, point)
        if zh is None and not is_chinese(point.name):
            zh = lettered_unsaid(text, point)  # (启动1号泵 of a "Pump 1A")
        if zh is None and not _english_said(toks) and not is_chinese(point.name) and \
                not point.names.get("zh"):
            # a switch of English names alone, said in Chinese: held to them as an English
            # command is only where what it leaves unsaid is an action (启动锅炉 had started a
            # "Boiler shutdown sequence", review atk60b); its other words, a Chinese word
            # may say otherwise than the lexicon knows (补水阀 of a "Makeup valve")
            english = unsaid_part(text, toks, point, profiles, as_english=True)
            return english if english is not None and _an_action_unsaid(english) else None
        if zh is not None or not _english_said(toks) or is_chinese(point.name):
            return zh
        # (a switch said of in English with a Chinese word in it, "open valve 3 谢谢",
        # "启动 hoist 9": its English name is held to the words as any English command's,
        # whether or not it has a Chinese name too — atk16, atk17)
    heard = {t.text for t in toks} | {t.raw for t in toks}
    named = {t.raw for label in (point.name, *point.aliases) for t in tokens(label)}
    if (_opened(toks) or any(v in simplified(text) for v in _VALVE_VERBS_ZH)) and \
            named & _MOTORS and not named & (_OPEN_CLOSE | _SWITCHGEAR):
        # "close gate 3" of a "Gate 3 motor": off stops the motor, it closes nothing
        return Doubt("part", tuple(sorted(named & _MOTORS)))
    meant: set[str] = set()  # what the words the name does not say itself mean

    def literal(t: Token) -> bool:
        # (an on/off verb says no other word by its stem: "shut valve 3" is no "shutdown"
        # said of a "Valve 3 shutdown solenoid", "close" no "closer")
        return t.text in heard or t.raw in heard or any(
            len(w) > 3 and w not in _ON_OFF and stems_match(t.raw, w) for w in heard)

    def said(t: Token) -> bool:
        if literal(t):
            return True
        if _VERBS_FIRST.get(unaccented(t.raw), "") in heard:
            return True  # "open the valve" of "Abrir válvula"
        if profiles is None:
            return False
        # a word of the same meaning ("generator" of a "CHP engine")
        return bool({s.concept for s in profiles.lexicon.concepts(t.raw)} & meant)

    def thing(t: Token) -> bool:
        return profiles is not None and any(
            s.kind == "thing" for s in profiles.lexicon.concepts(t.raw))

    owners = {s.concept for i, t in enumerate(toks[1:], 1) if t.is_id and profiles is not None
              for s in profiles.lexicon.concepts(toks[i - 1].raw) if s.kind == "thing"}
    # "steam 2": a number after a word the lexicon knows as no thing (a medium) numbers none
    unowned = profiles is not None and not owners and any(
        t.is_id and (senses := profiles.lexicon.concepts(toks[i - 1].raw)) and
        not any(s.kind == "thing" for s in senses) for i, t in enumerate(toks[1:], 1))
    if profiles is not None:  # "the first boiler", "the 2nd boiler": the thing after it
        owners |= {s.concept for i, t in enumerate(toks[:-1]) if t.is_id and not (
            i > 0 and any(x.kind == "thing" for x in profiles.lexicon.concepts(toks[i - 1].raw)))
                   for s in profiles.lexicon.concepts(toks[i + 1].raw) if s.kind == "thing"}

    def other(t: Token) -> bool:
        """a machine's word other than the one the command numbered"""
        if profiles is None or not owners:
            return False
        mine = {s.concept for s in profiles.lexicon.concepts(t.raw) if s.kind == "thing"}
        return bool(mine) and not mine & owners

    def acting(t: Token) -> bool:
        """a word of what a switch does ("closing", "reverse", "lowering"), or of what is
        done to its thing other than running it ("Reset pump", "Inhibit pump", "Ack pump",
        "Manual pump": no run switch of the pump; an "auto drain valve" is a kind of valve)"""
        return t.raw in ON_WORDS | OFF_WORDS or \
            unaccented(t.raw) in _NOT_RUN_WORDS or (
            profiles is not None and any(s.concept in _ACTING
                                         for s in profiles.lexicon.concepts(t.raw))) or any(
            m.start == 0 and m.end == len(t.raw) and m.concept.id in _ACTIONS_ON
            for m in concepts_of_text(t.raw))

    def machine(t: Token, after: Token, head: Token) -> bool:
        """a word of a machine that is switched itself (a pump, a brake, a fan), or of any
        machine before a plant unit (a turbine, a kiln: "Barring gear turbine 1", "Cooler
        kiln 2"), not of a place with the word after it ("pump station", "fan room")"""
        if profiles is None:
            return False
        lexicon = profiles.lexicon
        if lexicon.concepts(f"{t.raw} {after.raw}") - lexicon.concepts(t.raw) - \
                lexicon.concepts(after.raw):
            return False  # (a phrase of its own)
        mine = lexicon.broader(s.concept for s in lexicon.concepts(t.raw) if s.kind == "thing")
        owner = lexicon.broader(s.concept for s in lexicon.concepts(head.raw)
                                if s.kind == "thing")
        return bool(mine & _ACTORS) or bool(mine and owner & _UNITS and not owner & _ACTORS)

    def moves(m: Token, w: Token) -> bool:
        """whether machine `m` is what a function or medium `w` said switches: any machine of
        a function ("aeration"); of a medium, only what moves it ("start the cooling water"
        of its pump, not "stop the compressed air" of an "Compressed air dryer")"""
        if profiles is None:
            return True
        media = profiles.lexicon.broader(s.concept for s in profiles.lexicon.concepts(w.raw)
                                         if s.kind == "medium")
        if not media:
            return True
        movers = _MOVERS_OF_GAS if media & _GASES else _MOVERS_OF_LIQUID
        return bool(profiles.lexicon.broader(
            s.concept for s in profiles.lexicon.concepts(m.raw) if s.kind == "thing") & movers)

    def noun_first(t: Token) -> bool:
        """a machine's word of a language that names the machine first ("bomba", "pompe",
        "valvola")"""
        return unaccented(t.raw) in _NOUN_FIRST

    def which(t: Token) -> bool:
        """a word that only says which machine ("main" of "Mill 6 main motor")"""
        return profiles is not None and any(s.concept in _WHICH
                                            for s in profiles.lexicon.concepts(t.raw))

    def kin(t: Token, other: Token) -> bool:
        """ "engine" after a "CHP" said: a word for what the one said is"""
        return profiles is not None and bool(
            {s.concept for s in profiles.lexicon.concepts(t.raw) if s.kind == "thing"} &
            {s.concept for s in profiles.lexicon.concepts(other.raw)})

    # what the Chinese words of a mixed command mean: 关掉1号MAU的加湿器 says the humidifier
    # of a "MAU 1 steam humidifier" (blind batch 60), though its characters are tokens each
    zh_meant = {m.concept.id for m in concepts_of_text(simplified(text))
                if not m.form.isascii()} if profiles is not None and is_chinese(text) else set()
    first: list[str] | None = None
    nearest = 0.0
    written = {t.raw for t in toks}
    worded = [n for n in (point.name, *point.aliases) if not any(
        t.raw not in written and not t.raw.isalpha() and not t.raw.isdigit()
        for t in tokens(n))]
    # (a code not said is no name the command says all of: "10HTC20AP001")
    for label in map(unpaired, worded or [point.name]):  # ("Pump 1 start/stop")
        own = {t.text for t in tokens(label)} | {t.raw for t in tokens(label)}
        meant.clear()  # (a "valve" said of "Valve 3 shutdown solenoid" is its valve, and
        # stands for no solenoid too)
        if profiles is not None:
            meant.update(s.concept for t in toks if not t.is_number and t.raw not in own
                         and t.text not in own for s in profiles.lexicon.concepts(t.raw))
            meant.update(zh_meant)
        unsaid = _unsaid_words(label, said, heard.__contains__, other, kin, thing, which,
                               acting, machine, moves, not unowned, noun_first)
        if not unsaid:
            return None
        share = 1 - len(unsaid) / max(1, sum(not t.is_number for t in tokens(label)))
        if first is None or share > nearest:
            first, nearest = unsaid, share  # (the name most of which was said: "primary
            # air fan" of "Main burner primary air fan", not the "hs" of its tag "HS-4420")
    return Doubt("part", tuple(first or ()))


#: the verbs a Chinese on/off is said with, before or after the thing (longest first)
_ZH_ON_OFF = tuple(sorted((
    "打开", "开启", "关闭", "关掉", "关上", "启动", "开动", "停止", "停下来", "停下", "停掉", "投运",
    "投入", "切除", "断开", "合上", "合闸", "分闸", "关停", "停运", "开", "关", "停", "启"), key=len,
    reverse=True))


_ZH_FILLERS = ("请", "帮我", "给我", "把", "将", "一下", "吧", "了", "。", "！", "!", " ", "马上",
               "现在", "立即", "立刻", "赶紧", "赶快", "运行")


#: what a Chinese switch's name may say after its thing and be its switch ("1号泵开关"), or
#: end the word said ("搅拌" of 搅拌器)
_ZH_OWN = tuple(sorted((
    "电机", "马达", "开关", "接触器", "启动器", "变频器", "驱动器", "驱动", "运行", "命令", "控制",
    "电源", "继电器", "线圈", "输出", "使能", "启停", "启动", "常闭", "电磁阀", "执行器", "执行机构", "电动",
    "系统", "机组", "门", "灯", "器", "机"), key=len, reverse=True))


#: Chinese things opened and closed, which a start (启动) does not switch (review atk53)
_OPENED_BY_ITS_OWN = ("阀", "阀门", "门", "闸", "闸门", "风门", "挡板")
#: what ends a Chinese thing's word and may be left off (阀门, 阀)
_ZH_COMPLETIONS = ("门",)


def _numbered_first(said: str) -> str:
    """A Chinese thing with its number as a gateway's names write it first: 8号卷扬机 of
    八号卷扬机, 卷扬机8, 卷扬机#8 and 卷扬机抱闸#1 (1号卷扬机抱闸)."""
    said = said.replace("#", "号")
    said = re.sub(r"([零〇一二两三四五六七八九十百]+)号",
                  lambda m: f"{n}号" if isinstance(n := chinese(m.group(1)), int)
                  else m.group(0), said)
    m = re.fullmatch(r"(\D+?)号?(\d+)号?", said)
    return f"{m.group(2)}号{m.group(1)}" if m else said


def _said_start(text: str, name: str) -> str | None:
    """The longest start of a Chinese name (numbered first) that the command says, numbered
    as the name is ("8号卷扬机" of 8号卷扬机抱闸 in "8号卷扬机停机", "#8卷扬机", "第8台卷扬机")."""
    text = re.sub(r"#\s*(\d+)", r"\1号", text)
    text = re.sub(r"第([\d零〇一二两三四五六七八九十百]+)[台个座号]?", r"\1号", text)
    text = re.sub(r"([零〇一二两三四五六七八九十百]+)(?=号)",
                  lambda m: str(n) if isinstance(n := chinese(m.group(1)), int) else m.group(0),
                  text)
    numbered = re.search(r"\d", name) is not None
    for end in range(len(name), 1, -1):
        start = name[:end]
        if (not numbered or re.search(r"\d", start)) and start in text and \
                not start[-1].isdigit() and start[-1] != "号":
            after = text[text.index(start) + len(start):]
            for verb in _ZH_ON_OFF:
                after = after.replace(verb, "")
            if any(is_cjk(c) and c in name[end:] for c in after):
                return None  # (洗果泵 of 洗果机循环泵: the rest said shorter, the rules' to judge)
            return start
    return None


def _unsaid_part_zh(text: str, point: Point) -> Doubt | None:
    """`_unsaid_part` of a Chinese command: the thing said (the command without its verb)
    and what the switch's Chinese name says after it, other than its own switch: 停止1号锅炉 of
    1号锅炉给水泵 leaves 给水泵; 打开3号阀 of 3号阀关阀电磁阀 leaves 关阀."""
    name = point.names.get("zh") or (point.name if is_chinese(point.name) else None)
    if not name:
        return None
    name = simplified(unpaired(name))  # (19号泵启/停; 8號捲揚機抱閘)
    said = re.sub(r"[A-Za-z]+", "", simplified(folded(text)))  # ("stop 8号卷扬机")
    for filler in _ZH_FILLERS:
        said = said.replace(filler, "")
    for verb in _ZH_ON_OFF:
        if said.startswith(verb):
            said = said[len(verb):]
            break
        if said.endswith(verb):
            said = said[:-len(verb)]
            break
    said, name = _numbered_first(said), _numbered_first(name)
    if said not in name and said.endswith(_ZH_COMPLETIONS):
        said = said[:-1]  # 3号阀门 of 3号阀...
    if len(said) < 2 or said not in name:
        # words around the thing that are neither verbs nor fillers the lists know (停机,
        # 停用, 谢谢, "#3"): the longest start of the name said, with its number (atk17)
        said = _said_start(simplified(folded(text)), name) or ""
    if len(said) < 2 or said not in name:
        return None  # (the thing said otherwise: the rules' and the model's to judge)
    rest = name[name.index(said) + len(said):]
    opening = any(v in simplified(text) for v in _VALVE_VERBS_ZH)
    if opening and rest.startswith(_MOTORS_ZH) and said.endswith(_OPENED_ZH):
        return Doubt("part", (rest,))  # 关闭8号门 of 8号门电机: off stops it, closes nothing
    if rest.startswith(_ACTUATORS_ZH) and not said.endswith(("阀", "风门", "闸门")):
        return Doubt("part", (rest,))  # 关闭2号通风窗 of its 执行器: a valve's is the valve
    letter = re.match(r"[A-Za-z]+", rest)
    if letter and re.search(rf"(?<![A-Za-z]){letter.group(0)}(?![A-Za-z])", text, re.IGNORECASE):
        rest = rest[letter.end():]  # 启动回流泵A of 回流泵A启动: the letter said is its own
    while rest:
        # (its own switch, or the action said, last: 13号泵电机启动 of 启动13号泵)
        own = next((w for w in _ZH_OWN if rest.startswith(w)), None) or \
            next((w for w in _ZH_ON_OFF if rest == w and w in text), None)
        if own is None or (own == "启动" and said.endswith(_OPENED_BY_ITS_OWN)):
            return Doubt("part", (rest,))  # (4号阀门启动: off of its start closes no valve)
        rest = rest[len(own):]
    return None


def _after_the_action(point: Point, action: str, profiles: Profiles | None) -> Doubt | None:
    """The words after the action a switch is named by, in every one of its English names,
    that are not the switch's own ("Pump 22 start horn": "horn"). The machine that does it may
    follow ("Fresh oil make-up valve"), a signal of it may not (horn, lamp, beacon)."""
    def machine(t: Token) -> bool:
        senses = profiles.lexicon.concepts(t.raw) if profiles is not None else set()
        return any(s.kind == "thing" for s in senses) and \
            not any(s.concept in _SIGNALS for s in senses)

    first: list[str] | None = None
    for label in (point.name, *point.aliases):
        words = content(tokens(label), label=True)
        at = next((i for i, t in enumerate(words) if action in (t.raw, t.text)), None)
        if at is None:
            return None
        after = [t.raw for t in words[at + 1:] if not (
            t.is_id or t.is_number or any(c.isdigit() for c in t.raw) or t.raw in _OWN_SWITCH
            or t.text in _OWN_SWITCH or t.raw in _ASKING or machine(t))]
        if not after:
            return None
        first = first or after
    return Doubt("part", tuple(first or ()))


def _unsaid_words(label: str, said: Callable[[Token], bool], spoken: Callable[[str], bool],
                  other: Callable[[Token], bool], kin: Callable[[Token, Token], bool],
                  thing: Callable[[Token], bool], which: Callable[[Token], bool],
                  acting: Callable[[Token], bool],
                  machine: Callable[[Token, Token, Token], bool] = lambda t, a, h: False,
                  moves: Callable[[Token, Token], bool] = lambda m, w: True,
                  numbered: bool = True,
                  noun_first: Callable[[Token], bool] = lambda t: False) -> list[str]:
    """The words of a switch's name that say more than the command did (`_unsaid_part`).
    After what it does, the machine that does it may go unsaid ("start caustic dosing" of a
    "Caustic dosing pump", "close the ESD" of an "ESD valve"); after a thing or its number,
    no other thing may ("Tank 2 heater", "Boiler pump")."""
    unsaid: list[str] = []
    for segment in _NAME_BREAK.split(label):
        every = tokens(segment)
        kept = {id(t) for t in content(every, label=True)}
        # (a side is no stop word here: "Crane 1 right motor" is one of two; nor the letter
        # of "Pump 1A", one of 1A and 1B)
        lettered = {id(t) for i, t in enumerate(every[1:], 1) if every[i - 1].is_id and
                    len(t.raw) == 1 and t.raw.isalpha() and
                    re.search(rf"\d[\s-]?{t.raw}(?![a-z])", segment, re.IGNORECASE)}
        words = [t for t in every if id(t) in kept | lettered or t.raw in _SIDES]
        # (a switch's own word says nothing of which: "start" is no "starter" said)
        heard = [said(t) and t.raw not in _OWN_SWITCH for t in words]
        for i, t in enumerate(words):
            # a number numbers the word before it: "boiler 1" said is no "Boiler feed pump 1"
            # (the 1 is the pump's), nor "hoist 9" a "Hoist brake 9", nor "steam 2" a "Steam
            # drain valve 2" (a medium numbered, no thing)
            if heard[i] and t.is_id and i > 0 and not heard[i - 1] and (
                    other(words[i - 1]) or (not numbered and len(words[i - 1].raw) > 1
                                            and not words[i - 1].is_id)):
                heard[i] = False
        for i in range(len(words) - 1):  # "paddlewheel" of "Paddle wheel aerator"
            if spoken(words[i].raw + words[i + 1].raw):
                heard[i] = heard[i + 1] = True
            for j in range(i + 2, min(len(words), i + 5) + 1):  # "ORV" of "Open rack
                run = "".join(t.raw[0] for t in words[i:j])   # vaporiser"
                if not any(t.is_number for t in words[i:j]) and spoken(run):
                    heard[i:j] = [True] * (j - i)
        last = max((i for i, h in enumerate(heard) if h), default=-1)
        trailing = words[last + 1:]
        machines = [t for t in trailing if t.raw not in _OWN_SWITCH]
        if last >= 0 and not words[last].is_id and not thing(words[last]) and \
                len(machines) == 1 and thing(machines[0]) and moves(machines[0], words[last]):
            continue  # (one machine: "start aeration" is no "Aeration tank mixer")
        # before what is said, a word of an action or a state is no qualifier: "Closing coil
        # Valve 4", "Reverse starter conveyor 2"
        unsaid += [t.raw for t, h in zip(words[:last], heard[:last], strict=True)
                   if not h and acting(t)]
        # nor a machine before another machine said, in tag-list order: "Feed pump boiler 1"
        # and "Brake Mill 1" of "stop boiler 1", "stop mill 1" (not "Boiler feed pump 1")
        head = max((i for i in range(last + 1) if heard[i] and not words[i].is_id), default=-1)
        if head > 0 and thing(words[head]):
            unsaid += [t.raw for t, h, after in zip(words[:head], heard[:head],
                                                     words[1:head + 1], strict=True)
                       if not h and machine(t, after, words[head]) and not kin(t, words[head])
                       and t.raw not in unsaid and t.raw not in _OWN_SWITCH]
        if head > 0 and noun_first(words[head]):
            # "Mando local bomba 6", "Commande manuelle pompe 7": a machine named in Spanish,
            # French, Italian or Portuguese has what qualifies it after it ("Bomba de vaciado
            # 9"); a word before it says what is done to it, not which (review atk51)
            unsaid += [t.raw for t, h in zip(words[:head], heard[:head], strict=True)
                       if not h and not t.is_id and not t.is_number and t.raw not in unsaid
                       and t.raw not in _OWN_SWITCH and unaccented(t.raw) not in _RUN_FIRST]
        for i, t in enumerate(trailing, last + 1):
            rest = words[i + 1:]
            if t.is_id or t.is_number or any(c.isdigit() for c in t.raw) or \
                    t.raw in _OWN_SWITCH or t.text in _OWN_SWITCH or which(t) or \
                    (t.raw in ON_WORDS | OFF_WORDS and all(r.raw in _ASKING for r in rest)) \
                    or (last >= 0 and kin(t, words[last])):
                continue
            unsaid.append(t.raw)
    return unsaid


#: what opens and closes a circuit: "open" switches it off
_SWITCHGEAR = frozenset("""
    breaker breakers contactor contactors isolator isolators disconnector disconnect incomer
    recloser acb mccb mcb vcb cb gcb elcb rcd rccb switchgear sectionaliser sectionalizer
    coupler tie earthing grounding lbs rmu knife fuse switch feeder feeders bkr ckt qf qs ds
    ocb mpcb rcbo interrupter bus ats qa km circuit incoming outgoing cutout link mod es break
    capacitor hv lv mcc
""".split())


#: switchgear a description may say a point is
_CIRCUIT_BREAKERS = frozenset("""
    breaker contactor isolator disconnector incomer recloser acb mccb mcb vcb switchgear rmu lbs
""".split())
#: what opens and closes a flow: a "Knife gate valve", "Tie valve 2" is no switchgear
_FLOW = frozenset("valve valves damper dampers gate gates penstock sluice".split())
#: ...and what opens to let people or air through
_DOORS = frozenset("""
    door doors window windows skylight skylights louvre louver hatch vent flap lid barrier
    shutter
""".split())


#: Chinese switchgear, and the verbs that say open or close of a valve, not of it
_SWITCHGEAR_ZH = ("断路器", "刀闸", "隔离开关", "接触器", "开关柜", "空开", "接地开关", "负荷开关",
                  "母联", "空气开关", "馈线开关", "熔断器", "接地刀", "闸刀", "微断", "漏保",
                  "进线柜", "馈线柜", "电容器", "隔离刀")


_VALVE_VERBS_ZH = ("打开", "开启", "关闭", "关上", "关掉", "开", "关")


#: what says a circuit's state whatever it is: no doubt of open or close
_BREAKER_VERBS_ZH = ("合闸", "分闸", "断开", "闭合", "合上")


_OPEN_CLOSE = frozenset("open opened opening close closed closing shut".split())


def switchgear(text: str, toks: list[Token], point: Point) -> Doubt | None:
    """ "open breaker 4": of switchgear, open is off and close on; of a valve, the opposite.
    On/off of a breaker that is no switch named by opening or closing is not taken from
    either word ("Breaker 4 close" is what it says)."""
    if point.kind != "bool":
        return None
    if is_chinese(text):
        zh_name = simplified(point.names.get("zh") or point.name)
        said = simplified(text)
        # the switchgear said (关闭1号泵 of a 1号泵接触器 stops the pump), then 打开, 开, or
        # "open" said of it ("open 4号断路器"); its words are no verbs (开关)
        gear = [w for w in _SWITCHGEAR_ZH if w in zh_name and w in said]
        for w in (*_SWITCHGEAR_ZH, "开关"):
            said = said.replace(w, " ")
        verbs = [v for v in _VALVE_VERBS_ZH if v in said] + \
            [t.raw for t in toks if t.raw in _OPEN_CLOSE]
        if verbs and gear and not any(v in zh_name or v in said for v in _BREAKER_VERBS_ZH):
            return Doubt("switchgear", (verbs[0],))
        if not _english_said(toks) or is_chinese(point.name):
            return None  # (said in Chinese of its Chinese name: judged above)
    named = {t.raw for label in (point.name, *point.aliases)
             for t in content(tokens(label), label=True)}
    # (what it is may be said only in its description: "Feeder 5", "11 kV feeder breaker";
    # not a door's "limit switch")
    described = {t.raw for t in content(tokens(point.description or ""), label=True)} & \
        _CIRCUIT_BREAKERS
    if not (named | described) & _SWITCHGEAR or named & (_FLOW | _DOORS) or (
            named & _OPEN_CLOSE and not {"open", "close"} <= named):
        return None  # ("Breaker 4 open/close": which way on is, is not said)
    opened = _opened(toks)
    return Doubt("switchgear", opened) if opened else None


def _opened(toks: list[Token]) -> tuple[str, ...]:
    """The words of opening or closing said (not "shut off", "shut down": off of anything)."""
    return tuple(dict.fromkeys(t.raw for i, t in enumerate(toks) if t.raw in _OPEN_CLOSE and not (
        t.raw == "shut" and any(n.raw in ("off", "down") for n in toks[i + 1:]))))

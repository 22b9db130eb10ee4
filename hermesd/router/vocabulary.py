"""The small bilingual vocabulary of plant words that normalisation maps commands onto.

English synonyms collapse to one canonical word ("temp", "hot" -> "temperature"); Chinese words
become the English words a point's name would use ("锅炉" -> "boiler", "设为" -> "set to"), so a
Chinese command matches points named in English. Every entry is a general word of plants and
their operation (things, quantities, verbs, units, question words), never the name of a point of
any particular plant. Data only: no logic here, and nothing that depends on a config.
"""

from __future__ import annotations

#: English words people use for the same quantity or thing -> one canonical token
SYNONYMS = {
    "temp": "temperature", "temps": "temperature", "hot": "temperature",
    "warm": "temperature", "cold": "temperature", "heat": "temperature",
    "chilly": "temperature", "cool": "temperature", "degree": "temperature",
    "degrees": "temperature", "celsius": "temperature", "fahrenheit": "temperature",
    "full": "level", "empty": "level",
    "faster": "speed", "slower": "speed",  # ("fast", "slow", "quick": names and choices say
    # them, "fast fill valve", a fan's `slow`; "how fast" is a speed in the lexicon)
    "hotter": "temperature", "colder": "temperature", "warmer": "temperature",
    "cooler": "temperature", "rpm": "speed",
    "many": "count", "counter": "count", "number": "count", "total": "count", "tally": "count",
    "heavy": "weight", "weigh": "weight", "weighs": "weight", "weighing": "weight",
    "outside": "outdoor", "outdoors": "outdoor", "exterior": "outdoor",
    "inside": "indoor", "indoors": "indoor", "interior": "indoor",
    "pres": "pressure",  # ("press" is a machine as often as a pressure: the lexicon has both)
    "lamp": "light", "lights": "light",
    "humid": "humidity", "moisture": "humidity",
    "alarms": "alarm", "alert": "alarm", "alerts": "alarm", "siren": "alarm",
    "set-point": "setpoint", "target": "setpoint", "aiming": "setpoint",
    "belt": "conveyor",
    "packing": "packaging", "packed": "packaging", "pack": "packaging",
}

#: chemical formulas of several elements, as a plant writes them in names and tags
#: ("H3PO4_FLOW_SP", "NaOH"): read as the words of what they are, so that no number is found
#: in them (the "3" of H3PO4 is no thing 3). Formulas of one element and a number ("NH3",
#: "CO2") are read as such where they stand (`profiles.formula_words`).
COMPOUNDS = {
    "h2so4": "sulphuric acid", "h3po4": "phosphoric acid", "hno3": "nitric acid",
    "nh4no3": "ammonium nitrate", "caco3": "limestone", "na2co3": "soda ash",
    "h2o2": "hydrogen peroxide", "al2o3": "alumina", "alf3": "aluminium fluoride",
    "na2so4": "sodium sulphate", "nahso3": "sodium bisulphite", "fecl3": "ferric chloride",
    "caoh2": "lime", "ca(oh)2": "lime", "mgoh2": "magnesium hydroxide", "kno3": "potassium nitrate",
    "nh4oh": "ammonia solution", "(nh4)2so4": "ammonium sulphate", "h2s": "hydrogen sulphide",
}

#: Chinese word -> English word(s). Longest match wins, so "给水" (feed water) beats "给" (give).
#: Words that carry no meaning for matching map to "" and are dropped.
ZH_WORDS: dict[str, str] = {
    # things
    "锅炉房": "boiler house", "锅炉": "boiler", "熔炉": "furnace", "炉子": "furnace",
    "炉": "furnace", "烘箱": "oven", "烤箱": "oven", "烤炉": "oven", "窑": "kiln",
    "水泵": "water pump", "泵": "pump", "阀门": "valve", "阀": "valve",
    "水箱": "water tank", "储罐": "tank", "罐": "tank", "箱": "tank", "槽": "tank",
    "筒仓": "silo", "料仓": "silo", "仓": "silo", "容器": "vessel", "管道": "pipe", "管": "pipe",
    "风机": "fan", "风扇": "fan", "电动机": "motor", "电机": "motor", "马达": "motor",
    "压缩机": "compressor", "冷水机": "chiller", "冷却塔": "cooling tower",
    "冷却盘": "cooling tray", "冷却": "cooling", "再冷凝器": "recondenser",
    "加热器": "heater", "加热": "heating", "辊速": "roller speed",
    "搅拌机": "mixer", "搅拌器": "mixer", "发电机": "generator",
    "输送带": "conveyor", "传送带": "conveyor", "输送机": "conveyor", "传送机": "conveyor",
    "皮带": "conveyor", "生产线": "line", "流水线": "line", "产线": "line", "线": "line",
    "包装": "packaging", "磅秤": "scale", "电子秤": "scale", "秤": "scale",
    "警示灯": "warning beacon", "警灯": "warning beacon", "信标": "beacon",
    "信号灯": "signal light", "灯": "light", "照明": "light",
    "门": "door", "闸门": "gate", "大门": "gate", "窗": "window",
    "仓库": "warehouse", "冷库": "cold store", "冷藏室": "cold room", "冰柜": "freezer",
    "冷冻": "freezer", "车间": "workshop", "厂房": "hall", "房间": "room", "房": "house",
    "鸡舍": "house", "禽舍": "house", "舍": "house",
    "室": "room", "办公室": "office", "院子": "yard", "场地": "yard", "厂区": "yard",
    "堆场": "yard", "室外": "outdoor", "户外": "outdoor", "外面": "outdoor", "外边": "outdoor",
    "室内": "indoor", "传感器": "sensor", "仪表": "meter", "表": "meter",
    "计数器": "counter", "给水": "feed water", "进水": "inlet water", "出水": "outlet water",
    "供水": "supply water", "回水": "return water", "冷却水": "cooling water",
    "蒸汽": "steam", "水": "water", "油": "oil", "燃气": "gas", "气": "gas", "空气": "air",
    "装货": "loading", "卸货": "unloading", "入口": "inlet", "进口": "inlet",
    "出口": "outlet", "主": "main", "备用": "backup", "休闲": "leisure", "大厅": "hall",
    "螺旋": "spiral",
    "采暖": "heating", "供暖": "heating", "试车": "test run", "试运行": "test run",
    "起升": "hoist", "预设量": "preset", "预设": "preset", "轴流": "axial",
    "可变": "variable", "限速牌": "speed limit sign", "限速": "speed limit", "隧道": "tunnel",
    "开到位": "open limit", "关到位": "closed limit",
    "新风阀": "fresh air damper", "风阀": "damper", "里": "in", "里面": "in", "碳床": "carbon bed",
    "防火卷帘": "fire shutter", "卷帘": "shutter", "转盘": "carousel", "收货": "receiving",
    "工艺": "process", "过热": "overheating",
    "区域": "zone", "区": "zone", "瓶子": "bottle", "瓶": "bottle", "托盘": "pallet",
    "产品": "product", "电池": "battery", "烟囱": "stack",
    # quantities and states
    "温度": "temperature", "多热": "temperature", "热": "temperature", "冷": "temperature",
    "热水": "hot water", "冷水": "chilled water",  # (MEDIUM_QUALIFIERS)
    "压力": "pressure", "压强": "pressure", "液位": "level", "水位": "level", "料位": "level",
    "满": "level", "转速": "speed", "速度": "speed", "多快": "speed", "快": "speed",
    "慢": "speed", "流量": "flow", "重量": "weight", "多重": "weight", "重": "weight",
    "计数": "count", "数量": "count", "产量": "count", "个数": "count", "湿度": "humidity",
    "电流": "current", "电压": "voltage", "功率": "power", "频率": "frequency",
    "电量": "energy", "能耗": "energy", "设定值": "setpoint", "设定点": "setpoint",
    # (not 报警值: an alarm's setting, which a plain setpoint explained — review atk72)
    "给定值": "setpoint", "目标值": "setpoint", "目标": "setpoint", "开度": "position",
    "位置": "position", "状态": "status",
    "报警": "alarm", "警报": "alarm", "告警": "alarm", "故障": "fault",
    "运行": "running", "运转": "running", "在转": "running",
    # verbs (English words the rules know)
    "打开": "open", "开启": "on", "开": "on", "关闭": "close", "关掉": "off", "关上": "close",
    "锁上": "lock",
    "静音": "mute",
    "升起": "raise", "降下": "lower", "放下": "lower", "继续": "resume", "暂停": "pause",
    "释放": "release", "隔离": "isolate",
    # (atk12: said first, each was split into characters and the command read, not written)
    "切断": "cut", "解除": "release", "锁定": "lock", "吹扫": "purge",
    "点火": "start", "解锁": "unlock",
    # (atk15: 断开 was read by its 开, "on"; 合闸/分闸 close and open a breaker: on and off)
    "断开": "off", "合闸": "on", "分闸": "off",
    "关": "off", "启动": "start", "起动": "start", "开动": "start", "停止": "stop",
    "停下来": "stop", "停下": "stop", "停掉": "stop", "停": "stop", "停用": "disable",
    "启用": "enable", "投用": "enable",
    "投运": "start", "投入运行": "start", "退出运行": "stop", "停运": "stop", "开机": "start",
    "关机": "stop", "停机": "stop", "设为": "set to", "设置为": "set to", "设定为": "set to",
    "设成": "set to", "设到": "set to", "设定到": "set to", "设置到": "set to", "设置成": "set to",
    "设定成": "set to", "调到": "set to", "调为": "set to", "调成": "set to",
    "改为": "set to", "改成": "set to", "切换到": "set to", "切换为": "set to",
    "切换成": "set to", "切到": "set to", "切成": "set to", "开到": "open to",
    # (blind batch 70: 改到7 was read, its verb no word of ours)
    "改到": "set to", "改至": "set to", "调至": "set to", "设至": "set to", "设定至": "set to",
    "设置至": "set to", "修改为": "set to", "修改成": "set to", "修改到": "set to",
    "更改为": "set to", "更改成": "set to", "更改到": "set to", "变更为": "set to",
    "调整为": "set to", "调整到": "set to", "调整成": "set to", "调整至": "set to",
    "给到": "set to", "给成": "set to",  # (blind batch 72: 目标给到六百)
    "开至": "open to", "提高至": "raise to", "加大至": "raise to", "减小至": "lower to",
    # (said of a reading they tell where it went: 液位降至50; `write_gate` hears that)
    "升到": "raise to", "升至": "raise to", "升高至": "raise to", "降至": "lower to",
    "降低至": "lower to",
    # (设定调大: a change, never a read; 改 and 调 alone are in too many words, 空调 and
    # 改造: `normalize` reads them after 设定 only)
    "调大": "raise", "调小": "lower",
    "设置": "set", "设定": "set", "设": "set",
    "调整": "adjust", "调节": "adjust", "提高到": "raise to", "升高到": "raise to",
    "加大到": "raise to", "提高": "raise", "升高": "raise", "调高": "raise", "加大": "raise",
    "加快": "raise", "增加": "raise", "降低到": "lower to", "降到": "lower to",
    "减小到": "lower to", "降低": "lower", "调低": "lower", "减小": "lower", "减慢": "lower",
    "减少": "lower", "读取": "read", "读": "read", "查看": "show", "查询": "show",
    "显示": "show", "看看": "show", "看": "show", "告诉我": "tell me",
    "删除": "delete", "清空": "erase", "清除": "erase", "格式化": "format",
    "清零": "reset", "归零": "reset", "重置": "reset",
    "提升机": "hoist", "提升": "lift",  # (升 alone, after a number, is litres)
    "窑速": "kiln speed",  # a cement or lime kiln's rotation
    # the modes of a mode switch, as a map's English names say them
    "自动": "auto", "手动": "manual",
    "忽略": "ignore", "指令": "instructions", "规则": "rules", "播放": "play", "音乐": "music",
    # question words and particles
    "是多少": "what", "多少": "what", "有多高": "what", "多高": "what", "有多深": "what",
    "多深": "what", "多低": "what", "多大": "what", "几": "what", "什么": "what", "怎么样": "how",
    "如何": "how", "吗": "?yn", "是否": "?yn", "有没有": "?yn", "是不是": "?yn",
    # ("开着没有", "停了没有": is it on, has it stopped — blind batch 73; 没有 alone is "not")
    "着没有": "?yn", "了没有": "?yn",
    "在不在": "?yn", "呢": "", "的": "", "了": "", "吧": "", "啊": "", "呀": "", "把": "",
    "将": "", "给": "", "请": "please", "帮我": "please", "麻烦": "please", "一下": "",
    "请您": "please", "劳驾": "please", "您": "you", "哦": "", "哈": "", "辛苦了": "",
    "马上": "please", "立即": "please", "立刻": "please", "赶紧": "please", "尽快": "please",
    "快点": "please", "赶快": "please", "快快": "please",
    # quick-acting things, whose 快 is neither haste nor a speed (atk23: 关闭1号快开阀 had
    # closed 1号快速门, a high-speed door)
    "快开阀": "quick valve", "快关阀": "quick valve", "快速门": "high speed door",
    "快速卷帘门": "high speed door",
    "现在": "now", "当前": "current", "目前": "current", "有": "", "是": "", "在": "",
    "所有": "all", "全部": "all", "每个": "every", "各个": "each", "各": "each",
    "按下": "", "还剩": "", "还有": "", "还": "", "根": "", "着": "", "过": "", "一共": "",
    "汇总": "summary", "概况": "overview",
    "我": "me", "你": "you", "们": "", "这": "", "那": "", "个": "", "台": "", "和": "and",
    # a change of mind, a "don't": no value is taken from such a command (see CORRECTIONS)
    "不对": "?fix", "不是": "?fix", "错了": "?fix", "说错了": "?fix", "我是说": "?fix",
    "我的意思是": "?fix", "应该是": "?fix", "算了": "?fix", "等等": "?fix", "等一下": "?fix",
    "更正": "?fix", "其实": "?fix", "哦不": "?fix", "不要": "?not", "不用": "?not",
    "不必": "?not", "不许": "?not", "不准": "?not", "别再": "?not", "请勿": "?not", "勿": "?not",
    "加": "add", "减": "subtract",
    # words that hold a numeral but are no number ("快一点" is "a bit faster", not 1)
    "一点": "", "一些": "", "一点儿": "", "一直": "", "一起": "", "一定": "", "一样": "",
    "一半": "half", "不锈钢": "stainless steel",
    # the 度 of a spirit's strength is no temperature (低度酒: low wines, blind batch 34)
    "低度酒": "low wines", "高度酒": "spirit", "酒精度": "alcohol", "酒度": "alcohol",
    # greetings
    "你好": "hello", "您好": "hello", "嗨": "hi", "早上好": "morning", "晚上好": "evening",
    "谁": "who", "谢谢": "thanks", "多谢": "thanks", "感谢": "thanks",
    # units (after a number)
    "摄氏度": "degrees", "度": "degrees", "巴": "bar", "转每分钟": "rpm", "转每分": "rpm",
    "转": "rpm", "米每分钟": "m/min", "米每分": "m/min", "公斤": "kg", "千克": "kg",
    "克": "g", "秒": "s", "分钟": "min", "小时": "hours", "米": "m", "升": "l",
    # (a unit that opens with a numeral's character: "13.8千安" is 13.8 kA, no 13800 安)
    "千瓦时": "kwh", "千瓦": "kw", "千安": "ka", "千伏": "kv", "千帕": "kpa", "千米": "km", "千赫": "khz",
    "千牛": "kn",
}

#: English words of things: "N号" before them puts N after the thing ("3号锅炉" -> "boiler 3")
THINGS = frozenset("""
    boiler furnace oven kiln pump valve tank vessel pipe fan motor compressor chiller tower
    heater mixer generator conveyor line scale beacon light door gate window warehouse store silo
    room freezer workshop hall house office yard sensor meter counter zone bottle pallet
    battery stack
""".split())
#: English words that qualify a thing ("feed water pump"): an "N号" looks past them
MODIFIERS = frozenset("""
    feed water steam oil gas air inlet outlet supply return cooling main backup packaging
    warning signal cold product indoor outdoor
""".split())

#: canonical words of a measured quantity: a setpoint that names none ("Deck oven setpoint")
#: sets the one the command names ("set the oven temperature to 230")
QUANTITIES = frozenset("""
    temperature pressure level speed flow weight count humidity current voltage power frequency
    energy position turbidity ph conductivity salinity concentration
""".split())

#: Chinese numerals
ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "幺": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
#: "负五", "零下五度": the number after them is below zero
ZH_MINUS = ("零下", "负")

#: English number words
EN_UNITS = {
    "zero": 0, "nought": 0, "naught": 0, "one": 1, "two": 2, "three": 3, "four": 4,
    "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
    "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
           "seventy": 70, "eighty": 80, "ninety": 90}
EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
EN_MINUS = frozenset(("minus", "negative"))
EN_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
               "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}

#: words that carry no meaning for matching a point
STOP = frozenset("""
    a an the of in on at to for from by with is are was be been it its this that there
    what whats what's how much which who me my our please could would you can tell show give
    get read check current currently right now value reading status state there's does do
    i we us just kindly pls plz and or say says saying shows showing indicates indicating
    asap thx ty thanks cheers hey where's wheres how's hows
""".split())

# -- what makes a number no value to write ---------------------------------------------------

#: marks of a change of mind ("1500, no wait, 100"): after one, no value is taken (the rules ask
#: back). Chinese ones are mapped to CORRECTION_MARK by ZH_WORDS.
CORRECTION_MARK = "?fix"
CORRECTIONS = (
    ("no", "wait"), ("wait",), ("i", "mean"), ("i", "meant"), ("actually",), ("sorry",),
    ("correction",), ("make", "that"), ("scratch", "that"), ("rather",), ("instead",),
    ("oops",), ("nope",), ("or", "rather"), (CORRECTION_MARK,),
)
#: "don't set pump 1 to 1500": a write command that says not to is no write of its value
NEGATION_MARK = "?not"
NEGATIONS = frozenset(("not", "don't", "dont", "never", "doesn't", "shouldn't", NEGATION_MARK))
#: verbs of a change; with a number not introduced by "to"/"at" they ask for a change by it
#: ("raise pump 1 speed 100", "提高200"), whose base we never guess
#: words after a state that end the command ("fan on please", "boiler 2 off asap")
ENDING_WORDS = frozenset("please now thanks then again asap thx ty cheers".split())
RELATIVE_VERBS = frozenset("""
    raise lower increase decrease reduce bump boost drop slow add subtract up down more less
""".split())
#: verbs whose "up"/"down" is a particle, no change by an amount: "shut down", "open up"
PARTICLE_VERBS = frozenset("shut open power start fire spin close wind switch".split())
#: words right before a number that make it a change or a bound, not a value ("by 10")
RELATIVE_BEFORE = frozenset("by another extra additional plus than".split())
#: words right after a number that make it something other than the value to set
#: ("10 more", "20 below", "10 k", "50 of", "3 times", "2 and a bit")
AFTER_NUMBER = frozenset("""
    k grand dozen more less fewer extra below under above over higher lower faster slower hotter
    colder warmer cooler ish plus times half halves quarter quarters third thirds of or
""".split())
PERCENT = frozenset(("percent", "pct", "per"))

# -- meaning: what kind of word, units, plurals ------------------------------------------------

#: the kind of a canonical word (a concept of the small vocabulary; the plant lexicon knows more)
KINDS: dict[str, str] = {
    **dict.fromkeys(QUANTITIES, "quantity"),
    **dict.fromkeys(THINGS, "thing"),
    "setpoint": "role",
    "alarm": "state", "fault": "state", "running": "state",
}

#: a unit as people write or say it (lower case) -> one symbol for it
UNIT_SYMBOLS: dict[str, str] = {
    "°c": "°c", "℃": "°c", "degc": "°c", "celsius": "°c", "°f": "°f", "fahrenheit": "°f",
    "degree": "°c", "degrees": "°c", "degreesc": "°c", "degreescelsius": "°c",
    "degsc": "°c",
    "°c/min": "°c/min", "℃/min": "°c/min", "k/min": "°c/min", "°c/h": "°c/h", "℃/h": "°c/h",
    "k/h": "°c/h",
    "degreecelsius": "°c", "degreescentigrade": "°c", "degreec": "°c",
    "bar": "bar", "mbar": "mbar", "kpa": "kpa", "pa": "pa", "mpa": "mpa", "psi": "psi",
    # a gauge pressure is said in its plain unit ("100 bar" of a point in barg); an absolute
    # one (bara, psia) stays its own unit
    "barg": "bar", "bar(g)": "bar", "mbarg": "mbar", "mbar(g)": "mbar", "psig": "psi",
    "kpag": "kpa", "kpa(g)": "kpa", "bara": "bara", "bar(a)": "bara", "mbara": "mbara",
    "psia": "psia", "kpaa": "kpaa",
    "rpm": "rpm", "m/s": "m/s", "m/min": "m/min", "km/h": "km/h",
    "kw": "kw", "kilowatt": "kw", "kilowatts": "kw", "w": "w", "watt": "w", "watts": "w",
    # (kN, a force, is told from kn, knots, by its capital: see normalize.unit_symbol)
    "kilonewton": "kN", "kilonewtons": "kN", "kn": "kn", "kt": "kn", "kts": "kn",
    "knot": "kn", "knots": "kn",
    "mw": "mw", "megawatt": "mw", "megawatts": "mw", "milliwatt": "mW", "milliwatts": "mW",
    "ml": "ml", "millilitre": "ml", "millilitres": "ml", "milliliter": "ml",
    "milliliters": "ml", "megalitre": "Ml", "megalitres": "Ml", "megaliter": "Ml",
    "megaliters": "Ml", "ms": "ms", "millisecond": "ms", "milliseconds": "ms",
    "millisiemens": "mS", "mv": "mv", "millivolt": "mv", "millivolts": "mv",
    "kwh": "kwh", "mwh": "mwh", "a": "a", "amp": "a", "amps": "a", "ampere": "a",
    "amperes": "a", "ma": "ma", "v": "v", "volt": "v", "volts": "v", "kv": "kv",
    "hz": "hz", "hertz": "hz",
    "m³/h": "m³/h", "m3/h": "m³/h", "l/s": "l/s", "l/min": "l/min", "lpm": "l/min",
    "gpm": "gpm", "t/h": "t/h", "kg/h": "kg/h", "mg/l": "mg/l", "ppm": "ppm",
    "t/d": "t/d", "t/day": "t/d", "tpd": "t/d", "tph": "t/h", "t/hr": "t/h",
    "ml/l": "ml/l", "g/l": "g/l",
    "m3/hr": "m³/h", "m3/hour": "m³/h", "l/h": "l/h",
    "m³/d": "m³/d", "m3/d": "m³/d", "m3/day": "m³/d", "m³/day": "m³/d",
    "ml/s": "ml/s", "ml/min": "ml/min", "ml/h": "ml/h", "ml/kg": "ml/kg",
    "m³/s": "m³/s", "m3/s": "m³/s", "m3/sec": "m³/s", "m³/sec": "m³/s",
    # normal and standard cubic metres (of a gas at 0 or 15 °C): their own units
    "nm3/h": "nm³/h", "nm3/hr": "nm³/h", "sm3/h": "sm³/h", "sm3/hr": "sm³/h",
    "m³/min": "m³/min", "m3/min": "m³/min", "m3/minute": "m³/min", "m³/minute": "m³/min",
    "nm3/min": "nm³/min", "nm³/min": "nm³/min", "sm3/min": "sm³/min", "sm³/min": "sm³/min",
    "nm3": "nm³", "nm³": "nm³", "sm3": "sm³", "sm³": "sm³",
    "ntu": "ntu", "ph": "ph", "µs/cm": "µs/cm", "us/cm": "µs/cm", "ms/cm": "ms/cm",
    "ppt": "ppt", "psu": "ppt", "%rh": "%rh", "m³": "m³", "m3": "m³", "l": "l",
    "litre": "l", "litres": "l", "liter": "l", "liters": "l", "kg": "kg", "t": "t",
    "tonne": "t", "tonnes": "t", "m": "m", "metre": "m", "metres": "m", "meter": "m",
    "meters": "m", "cm": "cm", "mm": "mm", "%": "%", "percent": "%", "kilo": "kg",
    "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "millimetre": "mm",
    "millimetres": "mm", "millimeter": "mm", "millimeters": "mm", "centimetre": "cm",
    "centimetres": "cm", "centimeter": "cm", "centimeters": "cm",
    "w/m2": "w/m²", "w/m²": "w/m²", "kw/m2": "kw/m²", "kw/m²": "kw/m²",
    # (a luminance, a dust or gas concentration in air: "100 cd/m2" had been 100, "cd", "m"
    # and 2, a second number)
    "cd/m2": "cd/m²", "cd/m²": "cd/m²", "mg/m3": "mg/m³", "mg/m³": "mg/m³",
    "µg/m3": "µg/m³", "µg/m³": "µg/m³", "ug/m3": "µg/m³", "ug/m³": "µg/m³",
    "kg/m3": "kg/m³", "kg/m³": "kg/m³", "g/m3": "g/m³", "g/m³": "g/m³", "g/m2": "g/m²",
    "g/m²": "g/m²", "kg/m2": "kg/m²", "kg/m²": "kg/m²",
}
#: units that letter case tells apart, as written -> their symbol (any other case of the same
#: letters is the unit of UNIT_SYMBOLS, the one people mean when they do not mind case): an SI
#: prefix m is milli, M mega ("mW" a milliwatt, "MW" or "mw" a megawatt; "ML" or "Ml" a
#: megalitre, "ml" or "mL" a millilitre), an S siemens ("mS"; "ms" milliseconds), an N newtons
#: ("kN"; "kn" knots). A point in one of them is written only in a command that writes its
#: unit so (`normalize.case_matters`)
CASED_UNITS: dict[str, str] = {
    "kN": "kN", "KN": "kN", "mW": "mW", "mWh": "mWh", "ML": "Ml", "Ml": "Ml", "mS": "mS",
    "MS": "MS", "mPa": "mPa", "MV": "MV", "MA": "MA",
}
#: the quantity a unit measures
UNIT_QUANTITIES: dict[str, str] = {
    "°c": "temperature", "°f": "temperature",
    "bar": "pressure", "mbar": "pressure", "kpa": "pressure", "pa": "pressure",
    "mpa": "pressure", "psi": "pressure",
    "rpm": "speed", "m/s": "speed", "m/min": "speed", "km/h": "speed",
    "kw": "power", "w": "power", "mw": "power", "kwh": "energy", "mwh": "energy",
    "a": "current", "ma": "current", "v": "voltage", "kv": "voltage", "hz": "frequency",
    "m³/h": "flow", "m³/d": "flow", "m³/s": "flow", "nm³/h": "flow", "sm³/h": "flow",
    "m³/min": "flow", "nm³/min": "flow", "sm³/min": "flow",
    "l/s": "flow", "l/min": "flow",
    "l/h": "flow", "gpm": "flow", "t/h": "flow", "ml/s": "flow", "ml/min": "flow", "ml/h": "flow",
    "kg/h": "flow", "%rh": "humidity", "kg": "weight", "t": "weight", "ntu": "turbidity",
    "ph": "ph", "mg/l": "concentration", "ml/l": "concentration",
    "g/l": "concentration", "ppm": "concentration", "µs/cm": "conductivity",
    "ms/cm": "conductivity", "ppt": "salinity", "w/m²": "irradiance", "kw/m²": "irradiance",
    "cd/m²": "luminance", "mg/m³": "concentration", "µg/m³": "concentration",
    "kN": "tension", "kn": "speed", "mW": "power", "mWh": "energy", "mPa": "pressure",
    "mv": "voltage", "MV": "voltage", "MA": "current",
}

#: words that make a command about several points: a read of all of them, and never a write
PLURAL_MARKS = frozenset("all every each both everything".split())
#: a read of every point: "status summary", "give me an overview"
SUMMARY_WORDS = frozenset("summary overview rundown everything".split())

#: words of manner and motion that say nothing about which point is meant
FILLERS = frozenset("""
    going doing getting coming looking sitting like so far yet still about around moment
    reading value currently presently right now somebody someone anybody anyone nobody
    any some them they their we us it its across through into off over via up down there
    here back actually really um uh erm er hmm then
""".split())
#: words a bool point answers by itself: "is the fan running", "are the sprays active"
BOOL_STATES = frozenset(
    "running run operating active enabled working going open on spinning started stopped closed "
    "off lit engaged disengaged energised energized".split())
#: "what speed is it running at": a verb of motion before "at" says nothing of the point
MOTION_AT = frozenset("running going turning spinning doing sitting working".split())

# -- verbs and the words around them (the rules and the semantic stage read these) ------------

WRITE_VERBS = frozenset("""
    set change adjust make put raise lower increase decrease reduce bump slow drop boost
    write turn switch open close start stop enable disable activate deactivate shut cut add
    subtract kill run kick reopen dim brighten crank engage disengage mute unmute silence inhibit
    release resume pause lock unlock deenergise deenergize energise energize apply
""".split())
#: verbs that put a thing into a state said after it ("take pump 1 offline", "put the fan back
#: in service", "bring the pump back online"): with one of STATE_PHRASES later in the command
#: they are a switch on or off, and read as "switch ... on/off"
STATE_VERBS = frozenset("take bring put place return send get switch set".split())
#: the states they put a thing into, as word sequences (longest first when matched) -> on/off
STATE_PHRASES: dict[tuple[str, ...], str] = {
    **dict.fromkeys([("offline",), ("off", "line"), ("out", "of", "service"),
                     ("out", "of", "operation"), ("out", "of", "commission"), ("off", "stream"),
                     ("offstream",), ("out", "of", "duty")], "off"),
    **dict.fromkeys([("online",), ("on", "line"), ("in", "service"), ("into", "service"),
                     ("back", "in", "service"), ("back", "into", "service"),
                     ("back", "online"), ("back", "on", "line"), ("in", "operation"),
                     ("into", "operation"), ("back", "into", "operation"), ("on", "stream"),
                     ("onstream",), ("back", "on", "stream"), ("into", "commission"),
                     ("back", "on")], "on"),
}
ON_WORDS = frozenset("on open start enable activate up reopen engage".split())
#: a switch named by the state it puts a thing in when on ("Lane 1 closed signal", "Feeder
#: stopped", "Dosing disabled"): the verb of that state turns it on, the verb of the other
#: state off ("close lane 1" sets the closed signal, "reopen lane 1" clears it); on/off words
#: still say the switch itself ("turn off the lane 1 closed signal")
_CLOSING = (frozenset(("close", "shut")), frozenset(("open", "reopen")))
_STOPPING = (frozenset(("stop",)), frozenset(("start", "restart", "run")))
_DISABLING = (frozenset(("disable",)), frozenset(("enable",)))
_INHIBITING = (frozenset(("inhibit", "block", "disable")),
               frozenset(("enable", "release", "permit", "allow", "unblock")))
_SILENCING = (frozenset(("silence", "mute")), frozenset(("unmute", "unsilence")))
_LOCKING = (frozenset(("lock",)), frozenset(("unlock",)))
_RELEASING = (frozenset(("release", "disengage")), frozenset(("apply", "engage", "set")))
_PAUSING = (frozenset(("pause", "hold", "halt", "suspend")),
            frozenset(("resume", "unpause", "continue")))
_LOWERING = (frozenset(("lower",)), frozenset(("raise", "lift")))
_DEENERGISING = (frozenset(("deenergise", "deenergize")), frozenset(("energise", "energize")))
#: (a command coil is named by what it does when on as often as by the state it brings:
#: "Drain valve close command", "Burner inhibit", "Alarm horn silence", "Hall lights off")
NAMED_STATES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "closed": _CLOSING, "close": _CLOSING, "shut": _CLOSING,
    "stopped": _STOPPING, "stop": _STOPPING,
    "disabled": _DISABLING, "disable": _DISABLING,
    "inhibit": _INHIBITING, "inhibited": _INHIBITING,
    "blocked": _INHIBITING, "block": _INHIBITING,
    "silence": _SILENCING, "silenced": _SILENCING, "mute": _SILENCING, "muted": _SILENCING,
    "lock": _LOCKING, "locked": _LOCKING,
    "unlock": (_LOCKING[1], _LOCKING[0]), "unlocked": (_LOCKING[1], _LOCKING[0]),
    # ("Hoist brake release": "engage the brake" is the other state; "Conveyor pause",
    # "Barrier gate lower", "Steam valve de-energise")
    "release": _RELEASING, "released": _RELEASING,
    "pause": _PAUSING, "paused": _PAUSING, "hold": _PAUSING, "halt": _PAUSING,
    "lower": _LOWERING, "lowered": _LOWERING,
    "deenergise": _DEENERGISING, "deenergize": _DEENERGISING,
    "deenergised": _DEENERGISING, "deenergized": _DEENERGISING,
    # "Hall lights off": on/off said of the lights could mean either; only its own verb of
    # nothing, so every on/off word said of the thing is in doubt
    "off": (frozenset(), frozenset()),
}
#: ...said last in its name, or before only these ("Lane 1 closed signal", "Drain valve close
#: command"): not "Closed loop pump", "Fuel shut-off valve"
STATE_SIGNALS = frozenset("signal status indication flag state command cmd request req coil "
                          "output relay bit button pushbutton pb".split())
#: the last words of a coil's name that make its thing run, as a plain on/off does ("Pump 1
#: run", "Boiler 2 enable", "Sprinklers activate"): on/off said of the thing is the coil's value
RUN_WORDS = frozenset("run running start started on enable enabled active activate go operate "
                      "operating ein marcha marche marcia".split())  # ("Pumpe1.Ein": German
# for on; "B_Desc_01.Marcha": Spanish for run)
#: the known opposites of actions a coil may be named by ("Feeder 3 isolate", "Fan 5 brake"),
#: besides the de-/un-/dis- forms every action has (`sense_opposites`): what clears the coil.
#: A coil named by any other action is still set by its own word and written by on/off only
#: when the command says that word too; this table only lets more commands clear one.
_SENSE_PAIRS = (
    ("isolate", "normalise normalize"), ("suppress", "restore"), ("defeat", "restore"),
    ("unload", "load"), ("brake", "release"), ("deactivate", "activate"),
    ("disengage", "engage"), ("reverse", "forward"), ("retract", "extend"),
    ("dim", "brighten"), ("open", "close shut"), ("hold", "release resume"),
    ("bypass", "normalise normalize"), ("mask", "unmask"), ("lockout", "release"),
    ("override", "normalise normalize"), ("shed", "restore"), ("trip", "reset"),
)
SENSE_OPPOSITES: dict[str, frozenset[str]] = {}
for _word, _others in _SENSE_PAIRS:
    for _other in _others.split():
        SENSE_OPPOSITES[_word] = SENSE_OPPOSITES.get(_word, frozenset()) | {_other}
        SENSE_OPPOSITES[_other] = SENSE_OPPOSITES.get(_other, frozenset()) | {_word}
#: ...and its undoing said as a word of its own before it ("de-isolate", "un-suppress")
UNDO_PREFIXES = ("de", "un", "dis", "non")
#: Chinese words that undo the action said right after them (解除隔离: de-isolate, 取消屏蔽)
UNDO_ZH = ("解除", "取消", "撤销", "撤消", "退出", "复位")


def sense_opposites(word: str) -> frozenset[str]:
    """The words that undo `word`, an action a coil is named by: the table's, and its de-/un-/
    dis- forms ("isolate": "deisolate", "unisolate"; "disengage": "engage")."""
    out = set(SENSE_OPPOSITES.get(word, ())) | {p + word for p in UNDO_PREFIXES}
    for prefix in UNDO_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            out.add(word[len(prefix):])
    return frozenset(out)


#: words that say which water a point's name is of, and that water ("热水": hot water): a
#: command's must be the point's, whatever its other words are
MEDIUM_QUALIFIERS = {"hot": "medium.hot_water", "chilled": "medium.chilled_water"}
#: modifiers that tell two ends, sides or places of one thing apart: a point of the thing named
#: by one of them is not asked for by the other
OPPOSITE_MODIFIERS = {f"modifier.{a}": f"modifier.{b}" for pair in (
    ("inlet", "outlet"), ("supply", "return"), ("top", "bottom"), ("north", "south"),
    ("east", "west"), ("left", "right"), ("port", "starboard"), ("front", "rear"), ("hot_side", "cold_side"),
    ("upstream", "downstream"), ("suction", "discharge"), ("indoor", "outdoor"),
    ("inner", "outer"), ("import", "export"), ("raw", "treated"), ("head_end", "tail_end"),
    ("daytime", "nighttime"), ("summer", "winter")) for a, b in (pair, pair[::-1])}
#: the ends a word of one names the others of: the opposite end, and of a vessel's top,
#: middle and bottom the other two ("the middle of the DHW cylinder" is neither its top nor
#: its bottom: blind batch 53)
OTHER_ENDS = {c: frozenset((o,)) for c, o in OPPOSITE_MODIFIERS.items()} | {
    f"modifier.{a}": frozenset(f"modifier.{b}" for b in ("top", "middle", "bottom") if b != a)
    for a in ("top", "middle", "bottom")} | {
    # what goes out of a plant to a loop is no return from it ("the WFI going out to the
    # loop", of the loop's return temperature: blind batch 69)
    "modifier.outlet": frozenset(("modifier.inlet", "modifier.return")),
    "modifier.return": frozenset(("modifier.supply", "modifier.outlet")),
    # a ship's port is its left side and starboard its right: 右压载舱 is no port tank
    # (blind batch 71, where the lexicon keeps port and starboard apart from left and right)
    "modifier.left": frozenset(("modifier.right", "modifier.starboard")),
    "modifier.right": frozenset(("modifier.left", "modifier.port")),
    "modifier.port": frozenset(("modifier.starboard", "modifier.right")),
    "modifier.starboard": frozenset(("modifier.port", "modifier.left"))}
#: ...and an end that is the same as another ("going out" to a loop is its supply)
#: (a flue gas is no outlet's: "water coming out of the boiler" is no flue gas temperature,
#: review atk72b; nor an AHU's exhaust air, whose outlet is its supply, review atk69)
SAME_ENDS = {"modifier.outlet": frozenset(("modifier.supply", "modifier.discharge")),
             "modifier.supply": frozenset(("modifier.outlet",))}
#: "speed up", "make it faster": a change asked for, even without a verb we know
CHANGE_WORDS = frozenset("up down faster slower higher hotter colder warmer cooler more less"
                          .split())
#: verbs that ask for a change unless the plant names things with them ("arm the paster";
#: not the "Robot arm" of a cell)
ARMING = frozenset("arm disarm rearm".split())
OFF_WORDS = frozenset("off close shut stop disable deactivate kill disengage".split())
STOP_WORDS = frozenset("stop shut off".split())  # "stop pump 1": a speed to zero
YES_NO_START = frozenset("is are was does do did has have".split())
#: who or what a question opening with "do"/"is" asks about ("do we", "is the"): after one of
#: these the opening is a question, never an abbreviation ("DO" for dissolved oxygen)
QUESTION_SUBJECTS = frozenset(
    "i you we they it he she there the a an any all both each either this that these those "
    "my our your their its some none not".split())
WH_START = frozenset("what whats what's how how's hows which where where's wheres when why"
                     .split())
GREETINGS = frozenset("hello hi hey morning afternoon evening greetings".split())
THANKS = frozenset("thanks thank thx cheers".split())
#: short thanks that are a point's abbreviation as often ("TA", total acid): thanks only said
#: beside a word of THANKS ("ta, cheers")
SHORT_THANKS = frozenset("ta ty tx".split())
#: what we never do, whatever point it names: refused outright
DESTRUCTIVE = frozenset("delete erase wipe format destroy purge".split())
#: "reset the meter totaliser", "clear the counter", "zero the run hours", 清零: a count, a
#: total or a latched record put back to nothing, which no point of the plant is named for (a
#: plant with a writable "Fault reset" says so in its names): refused like a deletion.
#: "clear" only as the command's verb, first ("clear well level" is a place)
RESETS = frozenset("reset rezero zeroise zeroize".split())
#: "tare the load cell", "calibrate the pH probe": work on an instrument no point does, unless
#: the plant names a point so ("Weighbridge tare")
CALIBRATING = frozenset("tare calibrate recalibrate".split())
RESETS_FIRST = frozenset(("clear",))
INJECTION = frozenset("instructions instruction rules rule prompt previous system".split())
#: "bypass the interlock", "override the alarm": refused, unless the plant names a point so
#: ("bypass valve", "manual override")
RULE_BREAKING = frozenset("bypass override overrule circumvent defeat jumper".split())
#: what protects people and plant: never disabled, bypassed or ignored by a command
PROTECTIONS = frozenset("protection protections interlock interlocks safety trip trips".split())
#: what switching off or disabling a protection is said with
DISABLING = frozenset("disable deactivate defeat ignore bypass override off".split())
#: what "ignore" may not be said of: "ignore the limits and run at 5000"
SAFEGUARDS = frozenset("""
    limit limits range ranges interlock interlocks safety alarm alarms warning warnings
    protection trip trips maximum minimum max min
""".split())
#: units and words of manner, which say nothing about which point is meant
UNIT_WORDS = frozenset("""
    m min s sec h kg g t bar mbar psi kpa pa percent rpm hz khz kw w v a ma l lpm m3 mm cm
    up down please
""".split())
VALUE_BEFORE = frozenset(("to", "at"))  # "to 900": the number is the value to set
DELTA_BEFORE = frozenset(("by",))  # "by 10": a change, not a value; we never guess the base
#: quantities that say how hot, how hard or how fast, never how much there is
INTENSIVE = frozenset(f"quantity.{q}" for q in (
    "temperature", "pressure", "ph", "frequency", "voltage", "viscosity", "speed", "humidity"))
#: ...and those that say how much: "how much fuel" is a flow, a volume, a weight or a level
AMOUNTS = frozenset(f"quantity.{q}" for q in (
    "flow", "volume", "level", "weight", "energy", "count", "power", "mass_flow"))
#: words that ask "how many/much", which name a count only when nothing else is measured
WEAK_QUANTITY = frozenset(("many", "much", "number", "total", "tally"))

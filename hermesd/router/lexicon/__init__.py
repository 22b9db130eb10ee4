"""The plant lexicon: bilingual words of plants as data files (`hermesd.router.concepts` reads them).

A *concept* is one meaning a point name or a command word can carry ("turbidity", "clear well",
"setpoint", "°C"); its *surface forms* are the ways people write it, in English and Chinese.
General knowledge of plants only: no point name of any plant belongs here.

Files (UTF-8, one concept a line, sorted by id; lines starting with "#" are comments)::

    <kind>.tsv, <kind>.<domain>.tsv    concepts of one kind (thing.water.tsv: things of waterworks)
    t2s.txt                            traditional -> simplified characters (two TAB-separated chars)

Kinds: quantity (what is measured or set), thing (equipment and places), medium (what flows or is
stored), role (setpoint vs measured value, limits, totals), state (on, tripped, auto...), action
(start, set, raise...), modifier (inlet, north, primary, all...), unit (°C, m³/h, %...).

The en column also holds the words of the other languages written in Latin letters that plant
names use (German, Spanish, Portuguese, French, Italian: "presión", "Füllstand"), each written
once with its accents: forms and text are matched without them ("presion" finds "presión"),
and a German form with an umlaut also as a PLC symbol must spell it ("Laeuft" finds "läuft",
"Stoerung" finds "Störung") where no other form is written so.

Five columns separated by one TAB::

    id        "<kind>.<slug>", unique across all files; the kind is the file name's first part
    en        English surface forms separated by "|"; the first is the English label
    zh        Chinese surface forms in simplified characters, "|"-separated; the first is the label
    zh_hant   the Chinese label in traditional characters when it differs (replies may use it);
              its simplified folding is one of the zh forms, so traditional text finds the concept
    links     ids separated by spaces. unit: the quantities it measures (more than one: the unit
              narrows to a set, it does not decide); action: the state it brings about; any other
              kind: broader concepts of the same kind ("free chlorine" -> "chlorine")

A form may start with markers:

    ~   the form is shared on purpose with another concept of the same kind ("gate": a penstock or
        a door); a form shared within a kind without this mark on every side is a load error
    =   matched only with this letter case ("=DO" is dissolved oxygen, "do" is not)
    #   in running text, matched only right after a number ("#m": "5 m" is metres, "m" alone is not)
    ^   a part of words written together, as German writes them: a word no form begins with is
        read as two or three such forms ("Kühlwasserpumpe": ^kühlwasser + ^pumpe); English
        words written together are read whole ("powerhouse" is no power)

Forms are matched on words: case-folded, Unicode NFKC (℃ is °C, ｍ３ is m3), English plurals
stripped, punctuation and spaces ignored ("set-point" is "set point"), digits apart from letters
("CO2" is "co 2"); Chinese character by character. Typing errors are not listed (a fuzzy matcher
works over the forms); US and UK spellings and common abbreviations are.
"""

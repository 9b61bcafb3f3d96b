"""What an agent can know at a gold call: the dialogue so far, earlier results, and what they resolve to.

:func:`evidence_for` gathers, for node ``i`` of task ``t``: the user's messages of tasks 0..t
and their ask answers, the observations and assistant texts of earlier tasks and of the nodes
node ``i`` depends on, and the dates, times, numbers and country / currency / language codes the dialogue
resolves to (relative dates against the scenario's date). ``fairness.py`` asks it whether a
gold value is grounded.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from env_server.orchestrator.models import ScenarioSpec, TaskSpec

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
    "dozen": 12, "couple": 2, "pair": 2, "single": 1, "double": 2,
}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10}
MONTHS = {m: i + 1 for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"))}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
TODAY_WORDS = ("today", "tonight", "this morning", "this evening", "this afternoon", "now")
ALIASES = {"uk": "gb", "britain": "gb", "england": "gb", "usa": "us", "america": "us",
           # Everyday currency names pycountry does not carry ("Pound Sterling", "Yuan Renminbi").
           "pound": "gbp", "sterling": "gbp", "quid": "gbp", "yen": "jpy", "yuan": "cny", "renminbi": "cny"}
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:,\d{3})*(?:\.\d+)?(?!\w)")
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?!\d)")
_ISO_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2})?Z?)?$")
_ORD = r"(\d{1,2})(?:st|nd|rd|th)?"
_MONTH = r"(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_ORD}\b")
_DAY_MONTH = re.compile(rf"\b{_ORD}\s+(?:of\s+){_MONTH}\b")
_MONTH_RANGE = re.compile(rf"\b{_MONTH}\s+{_ORD}\s*(?:and|to|-|–|through|until)\s*{_ORD}\b")
_WORD_DAY_MONTH = re.compile(rf"\b({'|'.join(ORDINALS)})\s+of\s+{_MONTH}\b")
_WORD = re.compile(r"\w+")
# A date that names its year: "March 8, 2018", "8 March 2018", "the 8th of March, 2018".
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_ORD},?\s+(\d{{4}})\b")
_DAY_MONTH_YEAR = re.compile(rf"\b{_ORD}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
# "7pm", "7:30 pm", "11 a.m."; "noon" and "midnight".
_MERIDIEM = re.compile(r"(?<!\d)(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?")
_NAMED_TIMES = {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}


def sub_schema(schema: dict[str, Any], key: str) -> dict[str, Any]:
    """``schema[key]`` when it is a JSON object (a property's or the items' schema), else ``{}``."""
    value = schema.get(key)
    return value if isinstance(value, dict) else {}


def fold(text: str) -> str:
    return " ".join(text.casefold().split())


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _forms(word: str) -> set[str]:
    """A word, its stem and its singular: "rules" gives rules, rul, rule."""
    return {word, stem(word), word[:-1] if word.endswith("s") and len(word) > 3 else word}


def _words_match(a: str, b: str) -> bool:
    return bool(_forms(a) & _forms(b)) or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


@dataclass
class Evidence:
    dialogue: str = ""
    seen: list[str] = field(default_factory=list)
    numbers: set[float] = field(default_factory=set)
    dates: set[dt.date] = field(default_factory=set)
    times: set[str] = field(default_factory=set)
    codes: set[str] = field(default_factory=set)

    def said(self, text: str) -> bool:
        """The user said ``text`` (case-insensitive, not inside a longer word)."""
        want = fold(text)
        return bool(want) and re.search(rf"(?<!\w){re.escape(want)}(?:e?s)?(?!\w)", self.dialogue) is not None

    def seen_in_results(self, text: str) -> bool:
        want = fold(text)
        if not want:
            return False
        pattern = re.compile(rf"(?<!\w){re.escape(want)}(?!\w)")
        return any(want == s or (want in s and pattern.search(s)) for s in self.seen)

    def grounded(self, value: Any) -> bool:
        if value is None or isinstance(value, bool):
            return True
        if isinstance(value, int | float):
            return value in (0, 1) or float(value) in self.numbers
        if isinstance(value, dict):
            return all(self.grounded(v) for v in value.values())
        if isinstance(value, list):
            return all(self.grounded(v) for v in value)
        text = str(value).strip()
        if not text:
            return False
        if self.said(text) or fold(text) in self.codes or self.seen_in_results(text):
            return True
        return self._resolves(text)

    def _resolves(self, text: str) -> bool:
        iso = _ISO_DATE.match(text)
        if iso:
            try:
                day = dt.date.fromisoformat(iso.group(1))
            except ValueError:
                return False
            return day in self.dates and (iso.group(2) is None or f"{iso.group(2)}:{iso.group(3)}" in self.times)
        clock = re.fullmatch(r"(\d{1,2}):(\d{2})(?::\d{2})?", text)
        if clock:
            return f"{int(clock.group(1)):02d}:{clock.group(2)}" in self.times
        try:
            number = float(text)
        except ValueError:
            return False
        return number in (0, 1) or number in self.numbers

    def asked(self, value: Any, schema: dict[str, Any]) -> bool:
        """Did the user ask for this optional value? Enum choices must be named; others grounded."""
        if isinstance(value, list):
            return all(self.asked(v, sub_schema(schema, "items")) for v in value)
        if "enum" in schema and isinstance(value, str):
            return self.names_choice(value) or fold(value) in self.codes
        return self.grounded(value)

    def names_choice(self, value: str) -> bool:
        spoken = _WORD.findall(self.dialogue)
        return all(any(_words_match(w, s) for s in spoken) for w in re.split(r"[_\-\s]+", value.casefold()) if w)


def evidence_for(spec: ScenarioSpec, t: int, i: int, today: dt.date, dialogue: Evidence | None = None) -> Evidence:
    """Evidence at node ``i`` of task ``t`` (``dialogue``: :func:`dialogue_evidence` of task ``t``, if at hand)."""
    ev = dialogue or dialogue_evidence(spec, t, today)
    seen = list(ev.seen)
    numbers = set(ev.numbers)
    dates = set(ev.dates)
    for task_index, node_index in _earlier_nodes(spec, t, i):
        node = spec.tasks[task_index].nodes[node_index]
        _collect(node.observation, seen, numbers)
        if node.action.is_pseudo and isinstance(node.observation, str):
            dates |= _calendar_dates(fold(node.observation), today)  # a date the assistant wrote out
    return Evidence(ev.dialogue, seen, numbers, dates, ev.times, ev.codes)


def _earlier_nodes(spec: ScenarioSpec, t: int, i: int) -> list[tuple[int, int]]:
    out = [(k, n) for k in range(t) for n in range(len(spec.tasks[k].nodes))]
    return out + [(t, n) for n in sorted(_ancestors(spec.tasks[t], i))]


def _ancestors(task: TaskSpec, index: int) -> set[int]:
    seen: set[int] = set()
    stack = list(task.nodes[index].dependency_list)
    while stack:
        d = stack.pop()
        if d not in seen and 0 <= d < len(task.nodes):
            seen.add(d)
            stack.extend(task.nodes[d].dependency_list)
    return seen


def _collect(value: Any, strings: list[str], numbers: set[float]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _collect(v, strings, numbers)
    elif isinstance(value, list):
        for v in value:
            _collect(v, strings, numbers)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        numbers.add(float(value))
    else:
        strings.append(fold(str(value)))
        numbers.update(_numbers_in(fold(str(value))))


def dialogue_evidence(spec: ScenarioSpec, t: int, today: dt.date) -> Evidence:
    """What the user said in tasks 0..t (ask answers included) and what it resolves to."""
    said = [task.user_message for task in spec.tasks[: t + 1]]
    said += [n.user_input for task in spec.tasks[: t + 1] for n in task.nodes if n.user_input]
    text = fold(" \n ".join(said))
    numbers = _numbers_in(text) | {float(v) for w, v in NUMBER_WORDS.items() if re.search(rf"\b{w}\b", text)}
    dates = _dates_in(text, today)
    if "year" in text:
        numbers.add(float(today.year))
    numbers |= {float(d.year) for d in dates}
    return Evidence(text, [], numbers, dates, _times_in(text), _codes_in(text))


def _numbers_in(text: str) -> set[float]:
    return {float(m.group(0).replace(",", "")) for m in _NUMBER.finditer(text)}


def _dates_in(text: str, today: dt.date) -> set[dt.date]:
    found = _relative_dates(text, today) | _calendar_dates(text, today)
    if "week" in text:
        for day in [today, today + dt.timedelta(days=7), *found]:
            monday = day - dt.timedelta(days=day.weekday())
            found |= {monday + dt.timedelta(days=k) for k in range(7)}
    return found


def _relative_dates(text: str, today: dt.date) -> set[dt.date]:
    """Today, tomorrow, and the next two of each weekday the text names."""
    found: set[dt.date] = set()
    if any(w in text for w in TODAY_WORDS):
        found.add(today)
    if "tomorrow" in text:
        found.add(today + dt.timedelta(days=1))
    for k, name in enumerate(WEEKDAYS):
        if re.search(rf"\b{name}\b", text):
            ahead = (k - today.weekday()) % 7
            found |= {today + dt.timedelta(days=ahead), today + dt.timedelta(days=ahead + 7)}
    return found


def _calendar_dates(text: str, today: dt.date) -> set[dt.date]:
    """Written dates: "March 8" (this year or next), "March 8, 2018", "2018-03-08"."""
    pairs = [(m.group(1), m.group(2)) for m in _MONTH_DAY.finditer(text)]
    pairs += [(m.group(2), m.group(1)) for m in _DAY_MONTH.finditer(text)]
    pairs += [(m.group(2), str(ORDINALS[m.group(1)])) for m in _WORD_DAY_MONTH.finditer(text)]
    pairs += [(m.group(1), m.group(3)) for m in _MONTH_RANGE.finditer(text)]
    dated = [(month, day, year) for month, day in pairs for year in (today.year, today.year + 1)]
    dated += [(m.group(1), m.group(2), int(m.group(3))) for m in _MONTH_DAY_YEAR.finditer(text)]
    dated += [(m.group(2), m.group(1), int(m.group(3))) for m in _DAY_MONTH_YEAR.finditer(text)]
    found = {day for month, day_text, year in dated if (day := _date_or_none(year, MONTHS[month], int(day_text)))}
    found |= {day for m in re.finditer(r"(\d{4})-(\d{2})-(\d{2})", text)
              if (day := _date_or_none(int(m.group(1)), int(m.group(2)), int(m.group(3))))}
    return found


def _date_or_none(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _times_in(text: str) -> set[str]:
    times = {"00:00", "23:59"}
    times |= {f"{int(h):02d}:{m}" for h, m in _CLOCK.findall(text) if int(h) < 24}
    for m in _NUMBER.finditer(text):
        value = m.group(0)
        if value.isdigit() and int(value) < 24:
            hour = int(value)
            times.add(f"{hour:02d}:00")
            if hour < 12:
                times.add(f"{hour + 12:02d}:00")
    for word, hour in NUMBER_WORDS.items():
        if hour <= 12 and re.search(rf"\b{word}\b", text):
            times |= {f"{hour:02d}:00", f"{(hour + 12) % 24:02d}:00"}
    for hour_text, minute, half in _MERIDIEM.findall(text):
        hour = int(hour_text)
        if 1 <= hour <= 12:
            times.add(f"{hour % 12 + (12 if half == 'p' else 0):02d}:{minute or '00'}")
    times |= {clock for word, clock in _NAMED_TIMES.items() if re.search(rf"\b{word}\b", text)}
    return times


def _codes_in(text: str) -> set[str]:
    codes = {code for alias, code in ALIASES.items() if re.search(rf"\b{alias}s?\b", text)}
    for names, found in _code_names():
        if any(n in text and re.search(rf"(?<!\w){re.escape(n)}s?(?!\w)", text) for n in names):
            codes |= found
    return codes


@lru_cache(maxsize=1)
def _code_names() -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """(folded names, folded codes) of every country, currency, subdivision and language pycountry knows.

    A subdivision's name grounds its short and full codes: "Illinois" gives ``il`` and ``us-il``.
    """
    import pycountry

    out: list[tuple[tuple[str, ...], frozenset[str]]] = []
    for sub in pycountry.subdivisions:
        short = sub.code.split("-", 1)[1]
        if short.isalpha():
            out.append(((fold(sub.name),), frozenset({short.casefold(), sub.code.casefold()})))
    for c in pycountry.countries:
        names = {fold(getattr(c, attr)) for attr in ("name", "official_name", "common_name") if hasattr(c, attr)}
        out.append((tuple(sorted(names)), frozenset({c.alpha_2.casefold(), c.alpha_3.casefold()})))
    for money in pycountry.currencies:
        out.append(((fold(money.name),), frozenset({money.alpha_3.casefold()})))
    for lang in pycountry.languages:
        if hasattr(lang, "alpha_2"):  # "Spanish" grounds the ISO 639-1 code ``es``
            out.append(((fold(lang.name),), frozenset({lang.alpha_2.casefold()})))
    return out

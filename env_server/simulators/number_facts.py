"""A fact about the number asked: trivia, a true property, a day of the year, a year.

Numbers API answers "42 is the number of ...": every fact names its number. ``fact_step``
is chosen once per object schema of a number fact (a ``text`` and a ``type`` whose enum is
one of trivia, math, date and year); on each record it writes the text about the call's
number (or month and day, or year):

* ``math``: a property computed from the number itself (prime, a square, a factorization,
  a perfect or a Fibonacci number, the sum of its digits), so it is true;
* ``trivia``: what the number counts, from the ``number_trivia`` vocabulary;
* ``date``: "November 21st is the day in 1911 that ...", with ``number`` the day of the
  year (Numbers API counts in a leap year) and an event of ``history_event``;
* ``year``: "1969 is the year that ...", with ``date`` a month and day of that year.

A ``fragment`` call drops the leading "N is".
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

FACT_TYPES = frozenset({"trivia", "math", "date", "year"})
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _factors(n: int) -> list[int]:
    found, d = [], 2
    while d * d <= n:
        while n % d == 0:
            found.append(d)
            n //= d
        d += 1
    return found + ([n] if n > 1 else [])


def _fibonacci(n: int) -> bool:
    return any(math.isqrt(k) ** 2 == k for k in (5 * n * n + 4, 5 * n * n - 4))


def math_properties(n: int) -> list[str]:
    """True statements about ``n`` that follow "n is", most telling first."""
    found: list[str] = []
    m = abs(n)
    if m > 1 and sum(d for d in range(1, m // 2 + 1) if m % d == 0) == m and m < 10 ** 7:
        found.append("a perfect number: the sum of its proper divisors")
    if m > 0 and math.isqrt(m) ** 2 == m:
        found.append(f"the square of {math.isqrt(m)}")
    if m > 0 and round(m ** (1 / 3)) ** 3 == m:
        found.append(f"the cube of {round(m ** (1 / 3))}")
    if m > 3 and _fibonacci(m):
        found.append("a Fibonacci number")
    if m > 2 and math.isqrt(8 * m + 1) ** 2 == 8 * m + 1:
        found.append(f"the {ordinal((math.isqrt(8 * m + 1) - 1) // 2)} triangular number")
    if 1 < m < 10 ** 12:
        factors = _factors(m)
        if len(factors) == 1:
            found.append("a prime number")
        else:
            found.append("the product of " + " × ".join(str(f) for f in factors))
    digits = [int(c) for c in str(m)]
    if len(digits) > 1:
        found.append(f"a number whose digits add up to {sum(digits)}")
    found.append(f"an {'even' if m % 2 == 0 else 'odd'} number")
    return found


def fact_text(kind: str, record: Mapping[str, Any], gen: Generation) -> str:
    """The fact of one kind for the call, "n is ..." (before any fragment cut)."""
    args = gen.snaked_args
    if kind == "math":
        number = _int(args.get("number"), record.get("number"), 0)
        props = math_properties(number)
        return f"{number} is {props[0] if len(props) < 3 else gen.rng.choice(props[:3])}."
    if kind == "trivia":
        number = _int(args.get("number"), record.get("number"), 0)
        return f"{number} is {gen.rng.choice(gen.facts.vocab.get('number_trivia').texts)}."
    event = gen.rng.choice(gen.facts.vocab.get("history_event").texts)
    if kind == "date":
        month, day = _month_day(args, gen)
        return f"{_MONTHS[month - 1]} {ordinal(day)} is the day in {_int(record.get('year'), None, 1900)} that {event}."
    return f"{_int(args.get('year'), record.get('year'), 1900)} is the year that {event}."


def _int(first: Any, second: Any, default: int) -> int:
    for value in (first, second):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lstrip("-").isdigit():
            return int(value)
    return default


def _month_day(args: Mapping[str, Any], gen: Generation) -> tuple[int, int]:
    month = min(12, max(1, _int(args.get("month"), None, 1)))
    day = _int(args.get("day"), None, 1)
    last = (dt.date(2024 + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day  # 2024: a leap year
    return month, min(last, max(1, day))


def _kind(props: Mapping[str, Any]) -> str | None:
    typ = props.get("type")
    enum = set(typ.get("enum") or ()) if isinstance(typ, dict) else set()
    return next(iter(enum)) if len(enum) == 1 and enum <= FACT_TYPES else None


def fact_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a number fact about the number asked, or None for other records."""
    kind = _kind(props)
    if kind is None or "text" not in props:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        args = gen.snaked_args
        if kind == "date":
            month, day = _month_day(args, gen)
            if "year" in record:
                record["year"] = gen.rng.randint(1500, 2020)
            if "number" in record:
                record["number"] = (dt.date(2024, month, day) - dt.date(2024, 1, 1)).days + 1
        if kind == "year" and isinstance(record.get("date"), str):
            when = dt.date(2001, 1, 1) + dt.timedelta(days=gen.rng.randrange(365))
            record["date"] = f"{_MONTHS[when.month - 1]} {when.day}"
        text = fact_text(kind, record, gen)
        if args.get("fragment") is True:
            text = text.split(" is ", 1)[1].rstrip(".")
        record["text"] = text
        if "found" in record:
            record["found"] = True

    return step

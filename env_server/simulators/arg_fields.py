"""Which row field a search's filter argument asks about, and what "matches" means there.

A filter is often named a little differently from the field it filters: the Nobel API's
``nobel_prize_category`` filters each prize's ``category`` and ``nobel_prize_year`` its
``award_year``; eBay's ``priceCurrency`` fixes each listing's ``currency``; a laureate
search by ``name`` looks in the laureate's ``known_name``. ``field_for_arg`` finds that
field (the generator makes rows agree, ``answers``; the audit checks they do,
``audit_lists``), and ``is_name_filter`` tells a filter that matches part of a name ("Curie"
finds "Marie Curie") from one that must equal the value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from env_server.simulators.echoes import fits_schema
from env_server.simulators.plans import singular

# The last word of a filter argument that names an attribute every row carries: the
# argument filters the row field of that word (``nobel_prize_category`` -> ``category``,
# ``price_currency`` -> ``currency``, ``nobel_prize_year`` -> ``award_year``).
QUALIFIED_TAILS = frozenset({"category", "year", "currency", "country", "status", "type", "language", "genre",
                             "season", "region", "gender", "conference", "division", "kingdom"})
# Filters that match part of a row's name: a laureate named "Marie Curie" answers name=Curie.
NAME_ARGS = frozenset({"name", "title", "full_name", "display_name"})
# Row fields that carry an entity's name, most telling first.
NAME_FIELDS = ("name", "known_name", "full_name", "display_name", "title", "common_name", "scientific_name")
_RANGE_RE = re.compile(r"^(?:(min|max)_(.+)|(.+)_(min|max|gte|lte|gt|lt|from|to))$")


def field_for_arg(name: str, by_snake: Mapping[str, str]) -> str | None:
    """The row field (its own spelling) the snake_case argument ``name`` filters, or None.

    ``by_snake`` maps the row's snake_case field names to their own spelling."""
    exact = by_snake.get(name) or by_snake.get(singular(name)) or by_snake.get(name + "s")
    if exact is not None:
        return exact
    if name in NAME_ARGS:
        return next((by_snake[f] for f in NAME_FIELDS if f in by_snake), None)
    words = name.split("_")
    if len(words) < 2 or words[-1] not in QUALIFIED_TAILS or _RANGE_RE.match(name):
        return None
    tail = words[-1]
    for start in range(1, len(words)):  # the longest qualified suffix first: price_currency -> currency
        found = by_snake.get("_".join(words[start:]))
        if found is not None:
            return found
    endings = [k for k in by_snake if k.endswith("_" + tail)]
    return by_snake[endings[0]] if len(endings) == 1 else None  # nobel_prize_year -> award_year


def is_name_filter(arg: str, field: str) -> bool:
    """Whether the filter ``arg`` matches part of ``field`` (a name), not its whole value."""
    return arg in NAME_ARGS and arg != field


def shows_name(have: Any, want: Any) -> bool:
    """Whether a row's name shows every word of the name asked for ("curie" in "Marie Curie")."""
    if not isinstance(have, str) or not isinstance(want, str):
        return False
    text = have.lower()
    return all(word in text for word in re.findall(r"[^\W_]+", want.lower()))


def named_like(have: str, want: str) -> str:
    """``have`` made to show the name asked for: a person's family name becomes the word
    asked ("Rhonda Martin" + "curie" -> "Rhonda Curie"); any other name becomes the name."""
    asked = " ".join(w[:1].upper() + w[1:] for w in want.strip().split())
    words = have.split()
    if " " not in asked and 2 <= len(words) <= 3 and all(w[:1].isupper() and w.isalpha() for w in words):
        return " ".join([*words[:-1], asked])
    return asked


def with_measure_defaults(args: dict[str, Any], input_schema: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` with the default of a currency or unit parameter the call left out: a shop
    that prices in USD unless asked otherwise answers in USD, not in a currency drawn per
    row, and 214 of electricity in an API's default MWh is 214 MWh, not 214 kWh."""
    props = input_schema.get("properties")
    if not isinstance(props, dict):
        return args
    missing = {k: sub["default"] for k, sub in props.items() if k not in args and isinstance(sub, dict)
               and isinstance(sub.get("default"), str) and k.lower().endswith(("currency", "_unit", "_units"))}
    return {**missing, **args} if missing else args


def echo_keys(out: dict[str, Any], args: Mapping[str, Any], input_schema: Mapping[str, Any],
              output_schema: Mapping[str, Any], id_param: str | None) -> None:
    """A read keyed by more than its id answers for that key (in place): the books of the
    genre asked say that genre, a season's averages that season."""
    props = output_schema.get("properties")
    if not isinstance(props, dict):
        return
    for key in input_schema.get("required") or []:
        want, schema = args.get(key), props.get(key)
        if key != id_param and isinstance(want, (str, int)) and not isinstance(want, bool) and isinstance(
                schema, dict) and key in out and out[key] != want and fits_schema(want, schema):
            out[key] = want

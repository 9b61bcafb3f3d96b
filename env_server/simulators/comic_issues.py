"""A comic book reads as an issue of a series: "Night Heron (2019) #14".

A comics catalog titles an issue by its series, the year the series started, and the issue's
number; the series is named for its lead character ("Copper Marten"), a team book for its team.
So a comic record's title is composed from one character of ``comic_character`` (our own
invented heroes and villains), a start year and the record's own ``issueNumber``, and its
``series_name`` is that series with its run ("Night Heron (2019 - 2022)"). What the call asks
holds: a title search's opening words begin the series, an issue number asked is the issue, a
start year asked is the series' year. The year is no later than the issue's on-sale date,
and a monthly series reaches issue 14 about a year after it starts.

``comic_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

FIRST_YEAR = 1939  # the earliest year a comics catalog lists a series from
_ISSUE_KEYS = ("issueNumber", "issue_number", "issue")
_SERIES_KEYS = ("series_name", "seriesName", "series")


def comic_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that titles a comic as an issue of its series, or None for another record."""
    if "comic" not in entity.lower() or "title" not in props:
        return None
    issue_key = next((k for k in _ISSUE_KEYS if k in props), None)
    if issue_key is None:
        return None
    series_key = next((k for k in _SERIES_KEYS if isinstance(props.get(k), dict)
                       and props[k].get("type") == "string"), None)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        issue = _issue(record, gen, issue_key)
        series = _series_name(gen)
        year = _start_year(record, gen, issue)
        record["title"] = f"{series} ({year}) #{issue}"
        if series_key is not None and isinstance(record.get(series_key), str):
            ran = max(_on_sale_year(record) or year, year + max(1, issue // 12) + gen.rng.randint(0, 3))
            last = min(gen.today.year, ran)
            record[series_key] = f"{series} ({year} - {last})" if last > year else f"{series} ({year} - Present)"

    return step


def _issue(record: dict[str, Any], gen: Generation, key: str) -> int:
    asked = gen.snaked_args.get("issue_number")
    if isinstance(asked, int) and not isinstance(asked, bool) and asked >= 0:
        issue = asked
    else:
        # Most runs are short: issue numbers cluster low, a few long runs reach the hundreds.
        issue = gen.rng.randint(1, 24) if gen.rng.random() < 0.8 else gen.rng.randint(25, 300)
    if isinstance(record.get(key), int):
        record[key] = issue
    return issue


def _series_name(gen: Generation) -> str:
    typed = gen.snaked_args.get("title_starts_with")
    drawn = str(gen.scope.vocab_record("comic_character")["name"])
    if isinstance(typed, str) and typed.strip():
        typed = typed.strip()
        if drawn.lower().startswith(typed.lower()):
            return drawn
        return " ".join(word[:1].upper() + word[1:] for word in typed.split())
    return drawn


def _start_year(record: dict[str, Any], gen: Generation, issue: int) -> int:
    asked = gen.snaked_args.get("start_year")
    if isinstance(asked, int) and not isinstance(asked, bool) and FIRST_YEAR <= asked <= gen.today.year:
        return asked
    on_sale = _on_sale_year(record) or gen.today.year - gen.rng.randint(0, 6)
    return max(FIRST_YEAR, on_sale - issue // 12 - gen.rng.randint(0, 1))


def _on_sale_year(record: Mapping[str, Any]) -> int | None:
    for key in ("onsaleDate", "onsale_date", "date"):
        value = record.get(key)
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value[:10]).year
            except ValueError:
                continue
    return None

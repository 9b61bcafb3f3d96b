"""A company registry's filings whose description fits their filing type.

A record is a registry filing when its entity or its own name says filing and it has a
free-text ``description`` beside a type, a category or a title. It takes one entry of
``company_filing``: Companies House's form type code (CS01, AA, AP01, TM01, CH01…), its
filing category (``confirmation-statement``, ``accounts``, ``officers``), its plain name,
and the description a filing history shows ("Confirmation statement made on 14 March 2026
with no updates", "Appointment of Jane Roe as a director on 2 May 2025"). The entry is the
one the record's filing type already names when it names one, else any. The type code goes
to ``type``-like fields, the category to ``category``, the plain name to ``filing_type`` and
``title``; the description's date is the record's own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import faker_pool
from env_server.simulators.notice_compose import Fields, compose_whole, retitle, words_of

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "company_filing"
_FILING_WORDS = frozenset({"filing", "filings"})
_DESCRIPTIONS = ("description", "filing_description", "details", "summary")
_CODES = ("type", "form_type", "form", "document_type", "code")
_CATEGORIES = ("category", "filing_category")
_NAMES = ("filing_type", "title", "filing_name", "name")
_DATES = ("date", "filing_date", "action_date", "made_up_date")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def filing_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a filing's type, category and description together, or None."""
    if words_of(name, entity).isdisjoint(_FILING_WORDS):
        return None
    descriptions = Fields.among(props, _DESCRIPTIONS)
    codes, categories = Fields.among(props, _CODES, text_only=False), Fields.among(props, _CATEGORIES, text_only=False)
    names, dates = Fields.among(props, _NAMES, text_only=False), Fields.among(props, _DATES, text_only=False)
    if not descriptions or not (codes or categories or names):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        entry = _entry(record, names, gen)
        codes.write(record, entry["code"], props)
        categories.write(record, entry["category"], props)
        retitle(record, names, str(entry["title"]), props)
        when = _day(dates.first_value(record)) or gen.today
        slots = {"date": spoken_date(when), "period_end": spoken_date(_period_end(when)),
                 "period_next": spoken_date(_period_end(when).replace(year=_period_end(when).year + 1)),
                 "person": gen.rng.choice(faker_pool("name")), "charge": f"{gen.rng.randrange(10**11, 10**12)}"}
        text = str(entry["description"]).format_map(slots)
        for key in descriptions.keys:
            if key in record:
                record[key] = text

    return compose_whole(step, descriptions)


def _entry(record: Mapping[str, Any], names: Fields, gen: Generation) -> dict[str, Any]:
    """The filing the record's type names, or one drawn."""
    vocab = gen.facts.vocab
    named = names.first_value(record)
    found = vocab.having(KIND, named) if named is not None else ()
    pool = found or vocab.get(KIND).records
    entry: dict[str, Any] = pool[gen.rng.randrange(len(pool))]
    return entry


def _day(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def _period_end(day: dt.date) -> dt.date:
    """The accounting period the filing reports on: the last 31 March or 31 December at least
    three months before it is filed."""
    for year in (day.year, day.year - 1, day.year - 2):
        for month, last in ((12, 31), (3, 31)):
            end = dt.date(year, month, last)
            if end <= day - dt.timedelta(days=90):
                return end
    return dt.date(day.year - 1, 12, 31)


def spoken_date(day: dt.date) -> str:
    """A date as a filing history writes it: ``14 March 2026``."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"

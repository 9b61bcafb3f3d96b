"""The audit's record checks: a record's fields say what the record is.

``record_hits(spec, args, result, vocabulary)`` reports:

* a search hit whose name, address or other non-prose field carries a sentence about the
  search term (a photographer "Gail Whitaker. It also covers ocean.");
* a record whose own text is one of our (English) vocabulary texts but whose language code
  says another language (a quote in English marked ``"language": "ja"``);
* a phone number in E.164 that no numbering plan has (libphonenumber: "+86" with nine
  digits, a US area code not in service);
* a number lookup whose country, calling code, national format or validity is not the
  number's the call sent;
* an SMS whose part count does not follow its body's length;
* a public holiday (a day of the ``holidays`` package's nationwide calendar) that says it is
  kept only in some counties, that a description calls something else, whose ``fixed``
  flag is wrong, or whose ``launchYear`` comes after it;
* a parcel whose carrier is not the one its tracking number's shape names, or whose
  delivery estimate does not fit its status (delivered next month, in transit for months);
* a photograph titled, captioned or described as a museum artwork ("Tapestry with Hunting
  Scene" as a stock photo's alt text);
* a show or public event that starts in the small hours of the place it is held in, a
  meeting outside the waking day, or either lasting more than half a day;
* a job whose page URL names another job ("IT trainer" at ``/jobs/brand-designer``);
* a beer named or described as another drink or product ("Cold Brew", "A flowing pleated skirt");
* a shop's prices at dollar magnitudes in a currency worth far less than a dollar (a listing
  for 42.35 VND), or in a currency the market table does not rate;
* rows of one list that name the same related entity with different ids (three Honda
  models under three Honda ``Make_ID``s);
* a recipe that lists one ingredient twice.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

import phonenumbers

from env_server.catalog.models import ToolSpec
from env_server.simulators.answers import search_term
from env_server.simulators.draws import faker_pool, slugify
from env_server.simulators.event_hours import END_FIELDS, START_FIELDS, event_kind, local_hour, record_zone
from env_server.simulators.money_facts import COMMERCE, CURRENCY_FIELDS, MONEY
from env_server.simulators.naming import PHOTO_CAPTION, PLACE_ENTITIES, snake, title_kind
from env_server.simulators.parcel_facts import (
    CARRIER_FIELDS,
    ETA_FIELDS,
    NUMBER_FIELDS,
    STATUS_FIELDS,
    carrier_of,
    eta_days,
)
from env_server.simulators.phone_facts import NUMBER_ARGS, number_facts, parse_number, sms_segments
from env_server.simulators.records import default_facts
from env_server.simulators.term_weave import TITLE_FIELDS, is_prose
from env_server.simulators.text_language import LANGUAGE_FIELDS, TEXT_FIELDS
from env_server.specs.audit_checks import walk_records, walk_strings

Hit = tuple[str, str]

_E164 = re.compile(r"^\+[1-9]\d{6,14}$")
_SEGMENTS = ("num_segments", "segments", "segment_count", "num_parts")
_BODIES = ("body", "text", "message", "content")
# Entity words whose language field is not their text's (a language list, code, a place).
_OWN_LANGUAGE = frozenset({"language", "languages", "translation", "detection", "locale", "dictionary", "word",
                           "entry", "edition", "repository", "repo", "snippet", "gist", "code", "run", "query",
                           "project", "package", "library", "file"}) | PLACE_ENTITIES


def record_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any, vocabulary: frozenset[str],
                today: dt.date | None = None) -> list[Hit]:
    found = list(woven_name_hits(args, result))
    entity_words = set(snake(spec.profile.entity or "").split("_"))
    sent = _sent_texts(args)
    holiday = "holiday" in entity_words
    photo = title_kind(spec.profile.entity or "") == PHOTO_CAPTION
    event = event_kind(spec.profile.entity or "", spec.category)
    for path, record in walk_records(result):
        if not entity_words & _OWN_LANGUAGE:
            found += language_hits(path, record, args, vocabulary)
        if holiday:
            found += holiday_hits(path, record, args)
        found += parcel_hits(path, record, args, today)
        if photo:
            found += photo_hits(path, record)
        if event is not None:
            found += event_hits(path, record, args, event)
        found += job_url_hits(path, record)
        if "beer" in entity_words:
            found += beer_hits(path, record)
        if entity_words & COMMERCE:
            found += money_hits(path, record, args)
        found += phone_hits(path, record, sent)
        found += segment_hits(path, record)
    found += lookup_hits(args, result)
    found += shared_id_hits(spec.profile.entity or "", args, result)
    found += repeated_ingredient_hits(result)
    return found


@functools.lru_cache(maxsize=1)
def _mention_patterns() -> tuple[re.Pattern[str], ...]:
    frames = default_facts().vocab.get("term_mention").values
    return tuple(re.compile(r"\.\s+" + re.escape(f).replace(re.escape("{term}"), "(?P<term>.+)") + "$", re.IGNORECASE)
                 for f in frames)


def woven_name_hits(args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    """Fields that are not prose about the row but end in a sentence about the search term."""
    term = search_term(args)
    if not term:
        return
    shown = term.lower()[:60]
    for path, record in walk_records(result):
        for key, value in record.items():
            name = snake(key)
            if not isinstance(value, str) or is_prose(name) or name in TITLE_FIELDS or shown not in value.lower():
                continue
            if any(p.search(value) for p in _mention_patterns()):
                yield f"{path}.{key}", f"{key}={value[:80]!r} carries a sentence about the search term {term!r}"


def language_hits(path: str, record: Mapping[str, Any], args: Mapping[str, Any],
                  vocabulary: frozenset[str]) -> Iterator[Hit]:
    """A record written in English (its text is ours) whose language code says otherwise."""
    sent = {snake(k) for k in args}
    english = next((k for k, v in record.items() if snake(k) in TEXT_FIELDS and isinstance(v, str) and v in vocabulary),
                   None)
    if english is None:
        return
    for key, value in record.items():
        if snake(key) in LANGUAGE_FIELDS and snake(key) not in sent and isinstance(value, str) and len(value) == 2 \
                and value.lower() != "en":
            yield f"{path}.{key}", f"{key}={value!r} though its {english} is English: {str(record[english])[:60]!r}"


def phone_hits(path: str, record: Mapping[str, Any], sent: frozenset[str]) -> Iterator[Hit]:
    """E.164 numbers the engine drew that no numbering plan has."""
    for key, value in record.items():
        if isinstance(value, str) and _E164.match(value) and value not in sent:
            number = parse_number(value)
            if number is None or not phonenumbers.is_valid_number(number):
                yield f"{path}.{key}", f"{key}={value!r} is no valid phone number of any country"


def lookup_hits(args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    """A lookup of the number sent that describes another number."""
    snaked = {snake(k): v for k, v in args.items()}
    asked = next((snaked[k] for k in NUMBER_ARGS if isinstance(snaked.get(k), str)), None)
    number = parse_number(asked) if isinstance(asked, str) else None
    if number is None:
        return
    facts = number_facts(number)
    for path, record in walk_records(result):
        for key, value in record.items():
            if snake(key) not in snaked and (detail := _lookup_miss(snake(key), value, facts, str(asked))) is not None:
                yield f"{path}.{key}", f"{key}={value!r} {detail}"


def _lookup_miss(name: str, value: Any, facts: Mapping[str, Any], asked: str) -> str | None:
    """Why a lookup's field is not the fact of the number asked, or None."""
    region, code = facts["region"], facts["calling_code"]
    if name in ("country_code", "region_code") and isinstance(value, str) and len(value) == 2 and region \
            and value.upper() != region:
        return f"but {asked!r} is a number of {region}"
    if name in ("calling_country_code", "country_prefix") and str(value) != code:
        return f"but {asked!r} dials +{code}"
    if name in ("national_format", "national_format_number") and isinstance(value, str) \
            and re.sub(r"\D", "", value).lstrip("0") != re.sub(r"\D", "", facts["national"]).lstrip("0"):
        return f"is not {asked!r} written nationally ({facts['national']!r})"
    if name in ("valid", "is_valid") and isinstance(value, bool) and value != facts["valid"]:
        return f"but libphonenumber says {facts['valid']} of {asked!r}"
    return None


def segment_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    count = next((k for k in _SEGMENTS if isinstance(record.get(k), int) and not isinstance(record.get(k), bool)), None)
    body = next((k for k in _BODIES if isinstance(record.get(k), str)), None)
    if count is not None and body is not None and record[count] != sms_segments(record[body]):
        yield (f"{path}.{count}", f"{count}={record[count]} for a {len(record[body])}-character {body} "
               f"(sent as {sms_segments(record[body])})")


def holiday_hits(path: str, record: Mapping[str, Any], args: Mapping[str, Any]) -> Iterator[Hit]:
    """A day on the country's nationwide calendar that its record calls something else."""
    name = next((record[k] for k in ("name", "holiday_name") if isinstance(record.get(k), str)), None)
    day = _iso_day(record)
    country = _holiday_country(record, args)
    ref = default_facts().reference
    if name is None or day is None or country is None or (day, name) not in ref.holidays(country, day.year):
        return
    launch = record.get("launchYear", record.get("launch_year"))
    if isinstance(launch, int) and launch > day.year:
        yield f"{path}.launchYear", f"{name} of {day.year} launched in {launch}"
    if record.get("global") is False or record.get("counties"):
        yield f"{path}.global", f"{name} is a nationwide public holiday, yet kept only in {record.get('counties')}"
    text = record.get("description")
    if isinstance(text, str) and name.lower() not in text.lower():
        yield f"{path}.description", f"the description of {name} is about something else: {text[:60]!r}"
    fixed = record.get("fixed")
    if isinstance(fixed, bool):
        same = any(n == name and (d.month, d.day) == (day.month, day.day) for d, n in ref.holidays(country, day.year + 1))
        if fixed != same:
            yield f"{path}.fixed", f"fixed={fixed} but {name} falls on {'the same' if same else 'another'} date next year"


def parcel_hits(path: str, record: Mapping[str, Any], args: Mapping[str, Any], today: dt.date | None) -> Iterator[Hit]:
    """A parcel's carrier against its number's shape, and its delivery estimate against its status."""
    sent = {snake(k) for k in args}
    fields = {snake(k): k for k in record if snake(k) not in sent}
    yield from _carrier_hits(path, record, fields)
    if today is not None:
        yield from _eta_hits(path, record, fields, today)


def _carrier_hits(path: str, record: Mapping[str, Any], fields: Mapping[str, str]) -> Iterator[Hit]:
    number = next((record[fields[k]] for k in NUMBER_FIELDS if k in fields and isinstance(record[fields[k]], str)), None)
    carrier = next((fields[k] for k in CARRIER_FIELDS if k in fields and isinstance(record[fields[k]], str)), None)
    found = carrier_of(number) if number else None
    if found is None or carrier is None:
        return
    if re.sub(r"[^a-z0-9]", "", record[carrier].lower()) not in {re.sub(r"[^a-z0-9]", "", f.lower()) for f in found}:
        yield f"{path}.{carrier}", f"{carrier}={record[carrier]!r} but {number!r} is a {found[1]} number"


def _eta_hits(path: str, record: Mapping[str, Any], fields: Mapping[str, str], today: dt.date) -> Iterator[Hit]:
    status = next((record[fields[k]] for k in STATUS_FIELDS if k in fields and isinstance(record[fields[k]], str)), None)
    eta_key = next((fields[k] for k in ETA_FIELDS if k in fields), None)
    span = eta_days(status) if status else None
    if eta_key is None or span is None:
        return
    day = _iso_day({"date": record[eta_key]})
    if day is not None and not span[0] - 1 <= (day - today).days <= span[1] + 1:
        yield f"{path}.{eta_key}", f"{eta_key}={record[eta_key]!r} for a parcel that is {status!r} on {today}"


_CAPTIONS = ("title", "alt", "alt_description", "alt_text", "description", "caption")


def photo_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    """A photograph's caption fields that hold a museum artwork's title."""
    artworks = _artwork_titles()
    for key in _CAPTIONS:
        value = record.get(key)
        if isinstance(value, str) and value in artworks:
            yield f"{path}.{key}", f"{key}={value!r} is a museum artwork's title, not what a photo shows"


@functools.lru_cache(maxsize=1)
def _artwork_titles() -> frozenset[str]:
    return frozenset(default_facts().vocab.get("artwork_title").values)


# Local start hours no one holds such an event at, and the longest it lasts (hours).
_ODD_HOURS = {"evening": (0.0, 9.0), "daytime": (22.0, 30.0)}
_LONGEST_H = 12


def event_hits(path: str, record: Mapping[str, Any], args: Mapping[str, Any], kind: str) -> Iterator[Hit]:
    """An event that starts at an hour it is not held at where it is, or lasts past half a day."""
    sent = {snake(k): v for k, v in args.items()}
    fields = {snake(k): k for k in record if snake(k) not in sent}
    start = next((fields[k] for k in START_FIELDS if k in fields and isinstance(record[fields[k]], str)), None)
    if start is None:
        return
    hour = local_hour(record[start], record_zone(record, sent))
    lo, hi = _ODD_HOURS[kind]
    if hour is not None and (lo <= hour < hi or lo <= hour + 24 < hi):
        yield f"{path}.{start}", f"{start}={record[start]!r} starts at {hour:05.2f} local time"
    end = next((fields[k] for k in END_FIELDS if k in fields and isinstance(record[fields[k]], str)), None)
    if end is not None and "T" in record[start] and "T" in record[end]:
        try:
            length = dt.datetime.fromisoformat(record[end].replace("Z", "+00:00")) - dt.datetime.fromisoformat(
                record[start].replace("Z", "+00:00"))
        except (TypeError, ValueError):
            return
        if length > dt.timedelta(hours=_LONGEST_H):
            yield f"{path}.{end}", f"a {kind} event lasting {length} ({record[start]} to {record[end]})"


_SLUG_TAIL = re.compile(r"/([a-z0-9]+(?:-[a-z0-9]+)+)/?$")


def job_url_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    """A record titled with a job (an occupation) whose page URL's slug is another title's."""
    title = next((record[k] for k in ("title", "name", "job_title") if isinstance(record.get(k), str)), None)
    if title is None or title not in _job_titles():
        return
    want = slugify(title)
    for key, value in record.items():
        tail = _SLUG_TAIL.search(value) if isinstance(value, str) and "://" in value else None
        if tail is not None and want not in tail.group(1):
            yield f"{path}.{key}", f"{key}={value!r} names another job than {title!r}"


@functools.lru_cache(maxsize=1)
def _job_titles() -> frozenset[str]:
    return frozenset(faker_pool("job"))


def beer_hits(path: str, record: Mapping[str, Any]) -> Iterator[Hit]:
    """A beer whose name is a café or bar drink's, or whose description is a product's."""
    vocab = default_facts().vocab
    for key, other in (("beer_name", "drink_name"), ("name", "drink_name"), ("beer_description", "product_description"),
                       ("description", "product_description")):
        value = record.get(key)
        if isinstance(value, str) and value in _vocab_set(other) and value not in vocab.get("beer_name").values:
            yield f"{path}.{key}", f"{key}={value[:60]!r} is a {other.replace('_', ' ')}, not a beer's"


@functools.lru_cache(maxsize=8)
def _vocab_set(kind: str) -> frozenset[str]:
    return frozenset(default_facts().vocab.get(kind).values)


def money_hits(path: str, record: Mapping[str, Any], args: Mapping[str, Any]) -> Iterator[Hit]:
    """Prices drawn in dollars but labelled with a currency worth a small fraction of one."""
    sent = {snake(k) for k in args}
    code_key = next((k for k in record if snake(k) in CURRENCY_FIELDS and snake(k) not in sent), None)
    code = record.get(code_key) if code_key else None
    if not isinstance(code, str) or code.upper() == "USD" or len(code) != 3:
        return
    per = default_facts().market_table.fx_per_usd.get(code.upper())
    money = [v for k, v in record.items() if isinstance(v, float) and MONEY.search(snake(k)) and snake(k) not in sent]
    if not money:
        return
    if per is None:
        yield f"{path}.{code_key}", f"prices {money[:3]} in {code}, a currency with no market rate"
    elif per >= 20 and max(money) / per < 1.0:  # every price under a dollar: dollars mislabelled
        yield f"{path}.{code_key}", f"prices {money[:3]} in {code} are dollar amounts (1 USD = {per:g} {code})"


def shared_id_hits(entity: str, args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    """Rows (with ids of their own) that give one related entity's name two ids."""
    own = set(snake(entity).split("_"))
    sent = {snake(k) for k in args}
    for path, record in walk_records(result):
        for key, rows in record.items():
            if not isinstance(rows, list) or len(rows) < 2 or not all(isinstance(r, dict) for r in rows):
                continue
            fields = {snake(k): k for k in rows[0]}
            if "id" not in fields and f"{snake(entity)}_id" not in fields:
                continue
            for low, id_key in fields.items():
                stem = low[:-3] if low.endswith("_id") else ""
                name_key = fields.get(f"{stem}_name")
                if not stem or name_key is None or set(stem.split("_")) <= own or low in sent:
                    continue
                ids: dict[Any, set[str]] = {}
                for row in rows:
                    ids.setdefault(row.get(name_key), set()).add(repr(row.get(id_key)))
                for name, seen in ids.items():
                    if len(seen) > 1:
                        yield f"{path}.{key}", f"{name_key}={name!r} has {len(seen)} different {id_key}s"


_INGREDIENTS = ("ingredient", "ingredient_name", "str_ingredient", "food", "name")


def repeated_ingredient_hits(result: Any) -> Iterator[Hit]:
    """An ingredients list that names one ingredient twice."""
    for path, record in walk_records(result):
        for key, items in record.items():
            if snake(key) not in ("ingredients", "extended_ingredients") or not isinstance(items, list):
                continue
            names = [next((i[k] for k in i if snake(k) in _INGREDIENTS and isinstance(i[k], str)), None)
                     if isinstance(i, dict) else i for i in items]
            named = [n.lower() for n in names if isinstance(n, str)]
            if len(set(named)) < len(named):
                yield f"{path}.{key}", f"lists {sorted(n for n in set(named) if named.count(n) > 1)} more than once"


def _iso_day(record: Mapping[str, Any]) -> dt.date | None:
    value = record.get("date")
    try:
        return dt.date.fromisoformat(value[:10]) if isinstance(value, str) else None
    except ValueError:
        return None


def _holiday_country(record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
    countries = default_facts().reference.countries
    for value in (record.get("countryCode"), record.get("country_code"), record.get("country"),
                  args.get("countryCode"), args.get("country_code"), args.get("country")):
        found = countries.find(value) if isinstance(value, str) else None
        if found is not None:
            return str(found.cca2)
    return None


def _sent_texts(args: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(text for _, _, text in walk_strings(dict(args)))

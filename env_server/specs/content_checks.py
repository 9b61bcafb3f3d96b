"""The audit's content checks: what a record says, as a person who knows the API reads it.

``content_hits(spec, args, result)`` reports:

* a per-100 g nutrient table whose protein, fat, carbohydrate, fibre and salt weigh more than 100 g
  in any spelling (``nutrient_names``: Open Food Facts' ``proteins_100g`` too; energy, kilojoules and
  sugar are invariants, checked with the others);
* an integer moment (``created_time``) that is no Unix time;
* an item of a record's list that repeats the record's own title (a release whose tracks
  are all called like the release);
* a search hit whose text opens with the search term as a label ("Camping Gear: …");
* a Bible verse whose book id and name disagree, or a passage whose verses are not the
  reference asked;
* a coin's price change out of proportion for its span, or a major coin ranked past 100;
* a product whose description is about another product, or a UPC with a wrong check digit;
* a series of price bars that never moves, or whose bars are not the interval asked apart.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators import timeline
from env_server.simulators.answers import search_term
from env_server.simulators.candles import parse_interval
from env_server.simulators.epoch_kinds import is_moment_name
from env_server.simulators.market_figures import figure_kind
from env_server.simulators.nutrient_names import GRAMS
from env_server.simulators.nutrition import PER_100G_OBJECTS
from env_server.simulators.product_facts import VAGUE, product_step
from env_server.simulators.records import default_facts
from env_server.simulators.scripture import parse_reference
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]

_TITLES = ("title", "name", "Title", "Name")
_UNIX_FLOOR = 100_000_000  # 1973: anything smaller is a count, not a moment


def content_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> list[Hit]:
    found: list[Hit] = []
    for path, record in walk_records(result):
        found += nutrient_hits(path, record)
        found += epoch_hits(path, record)
        if spec.profile.operation in (Operation.READ, Operation.CREATE):  # a search's rows may share a name
            found += repeated_title_hits(path, record)
        found += verse_hits(path, record)
        found += coin_figure_hits(path, record)
        found += product_hits(path, record, spec.profile.entity or "")
    found += label_weave_hits(args, result)
    found += candle_series_hits(args, result)
    found += passage_hits(args, result)
    return found


def nutrient_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    for key, table in record.items():
        if key.lower() not in PER_100G_OBJECTS or not isinstance(table, dict):
            continue
        grams = [next((table[k] for k in names if isinstance(table.get(k), (int, float))), 0.0) for names in GRAMS]
        if sum(grams) > 100.5:
            hits.append((f"{path}.{key}", f"{sum(grams):.1f} g of protein, fat, carbohydrate, fibre and salt in 100 g"))
    return hits


def epoch_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    return [(f"{path}.{key}", f"{key}={value} is no Unix time") for key, value in record.items()
            if type(value) is int and is_moment_name(key) and 0 <= value < _UNIX_FLOOR and "year" not in key.lower()]


def repeated_title_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    own = next((record[k] for k in _TITLES if isinstance(record.get(k), str) and record[k].strip()), None)
    if own is None:
        return []
    hits: list[Hit] = []
    for key, rows in record.items():
        if not isinstance(rows, list) or len(rows) < 2:
            continue
        same = [i for i, row in enumerate(rows) if isinstance(row, dict)
                and any(row.get(k) == own for k in _TITLES)]
        if len(same) >= 2:
            hits.append((f"{path}.{key}", f"{len(same)} items repeat the record's own title {own!r}"))
    return hits


_SWINGS = {"coin_change_1h": 5.0, "coin_change_24h": 25.0, "coin_change_7d": 60.0}


def coin_figure_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    """A coin's change over an hour, a day or a week out of all proportion, or a rank past
    the coins the market keeps for one it keeps (BTC at rank 9812)."""
    hits: list[Hit] = []
    for key, value in record.items():
        if type(value) not in (int, float):
            continue
        kind = figure_kind(key, "coin", None)
        if kind in _SWINGS and abs(value) > _SWINGS[kind]:
            hits.append((f"{path}.{key}", f"{key}={value}% is no {kind[12:]} move of a listed coin"))
        if kind == "coin_rank" and isinstance(record.get("symbol"), str) and value > 100:
            fact = default_facts().market_table.find(record["symbol"])
            if fact is not None and fact.kind == "crypto" and fact.supply:
                hits.append((f"{path}.{key}", f"{record['symbol']} ranked {value}"))
    return hits


def product_hits(path: str, record: Mapping[str, Any], entity: str) -> list[Hit]:
    """A product whose description is about something else, or a UPC whose check digit fails."""
    hits: list[Hit] = []
    upc = record.get("upc")
    if isinstance(upc, str) and re.fullmatch(r"\d{12}", upc) and upc_a_check(upc[:11]) != upc[11]:
        hits.append((f"{path}.upc", f"UPC {upc} fails its check digit"))
    step = product_step(entity, {k: {} for k in record})
    name = next((record[k] for k in ("name", "title", "product_name") if isinstance(record.get(k), str)), None)
    text = next((record[k] for k in ("longDescription", "long_description", "description")
                 if isinstance(record.get(k), str)), None)
    if step is not None and name and text and name not in text:
        words = {w for w in re.findall(r"[a-z]{4,}", name.lower()) if w not in VAGUE}
        if words and not any(w.rstrip("s") in text.lower() for w in words):
            hits.append((path, f"the description of {name!r} is about something else: {text[:50]!r}"))
    return hits


def upc_a_check(body: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(body))
    return str((10 - total % 10) % 10)


def candle_series_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """A series of price bars that never moves, or whose bars are not the interval asked apart."""
    hits: list[Hit] = []
    step = next((s for k in ("interval", "resolution", "timeframe") if (s := parse_interval(args.get(k)))), None)
    for path, record in walk_records(result):
        for key, rows in record.items():
            bars = [r for r in rows if isinstance(r, dict) and {"open", "close"} <= r.keys()] if isinstance(
                rows, list) else []
            if len(bars) >= 3:
                hits += [(f"{path}.{key}", detail) for detail in _bar_misses(bars, step)]
    return hits


def _bar_misses(bars: list[dict[str, Any]], step: int | None) -> list[str]:
    misses = [f"{len(bars)} bars with the same open and close"] if len({(b["open"], b["close"]) for b in bars}) == 1 else []
    when = next((k for k in ("datetime", "date", "timestamp", "time", "t") if k in bars[0]), None)
    times = sorted(t for b in bars if when and (t := timeline.moment(b.get(when), when)) is not None)
    gaps = {int((b - a).total_seconds()) for a, b in itertools.pairwise(times)}
    if step and step < 86_400 and len(times) == len(bars) and gaps != {step}:
        misses.append(f"bars {sorted(gaps)[:3]} s apart for an interval of {step} s")
    return misses


def label_weave_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    term = search_term(args)
    if not term or len(term) > 60:
        return []
    label = term.lower() + ": "
    hits: list[Hit] = []
    for path, record in walk_records(result):
        for key, value in record.items():
            if isinstance(value, str) and value.lower().startswith(label):
                hits.append((f"{path}.{key}", f"the search term is pasted in front of the text: {value[:60]!r}"))
    return hits


def verse_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    book_id, name = record.get("book_id"), record.get("book_name")
    if not isinstance(book_id, str) or "verse" not in record:
        return []
    book = default_facts().vocab.index("bible_book").get(str(name).lower()) if isinstance(name, str) else None
    if isinstance(name, str) and (book is None or book["book_id"] != book_id):
        return [(path, f"book_id {book_id!r} is not the book {name!r}")]
    return []


def passage_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    reference = args.get("reference")
    verses = result.get("verses") if isinstance(result, dict) else None
    if not isinstance(reference, str) or not isinstance(verses, list) or not verses:
        return []
    parsed = parse_reference(reference, default_facts().vocab.get("bible_book").records)
    if parsed is None:
        return []
    book, chapter, first, last = parsed
    want = [(book["book_id"], chapter, v) for v in range(first, min(last, first + len(verses) - 1) + 1)]
    have = [(v.get("book_id"), v.get("chapter"), v.get("verse")) for v in verses if isinstance(v, dict)]
    if have != want or len(verses) > last - first + 1:
        return [("$.verses", f"the verses {have[:3]}… are not {reference!r}")]
    return []

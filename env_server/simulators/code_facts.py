"""Codes that name a real thing, drawn from fact tables with the thing they name: a stock
exchange's MIC with its acronym and name, an SIC code with its industry title, an ICD-10 code
with its diagnosis, an ATC code with its substance; and browser user-agent strings composed
the way the browsers write them.

A record draws its exchange (its industry, its diagnosis) once, and every field of it reads
that one row, so "XNAS" never sits beside "London Stock Exchange". A listing's exchange is
its ticker's (AAPL trades on NASDAQ); a list of exchanges walks the table in a seeded order.
The tables are ours, under ``tool_specs/reference/`` (``stock_exchanges.json``,
``industry_codes.json``, ``medical_codes.json``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Row = dict[str, Any]
_CRYPTO_WORDS = frozenset({"coin", "coins", "crypto", "cryptocurrency", "token", "tokens", "pair", "pairs", "dex"})


@functools.lru_cache(maxsize=1)
def exchanges() -> tuple[Row, ...]:
    rows: list[Row] = reference_table("stock_exchanges.json")["exchanges"]
    return tuple(sorted(rows, key=lambda r: r["mic"]))


@functools.lru_cache(maxsize=1)
def _weighted_exchanges() -> tuple[Row, ...]:
    return tuple(r for r in exchanges() for _ in range(int(r["weight"])))


@functools.lru_cache(maxsize=1)
def _by_acronym() -> dict[str, Row]:
    found: dict[str, Row] = {}
    for row in sorted(exchanges(), key=lambda r: -int(r["weight"])):
        found.setdefault(str(row["acronym"]).upper(), row)
    return found


@functools.lru_cache(maxsize=4)
def code_table(file: str, table: str) -> tuple[Row, ...]:
    """A table of ``{"code", "description"}`` rows, sorted by code."""
    rows: list[Row] = reference_table(file)[table]
    return tuple(sorted(rows, key=lambda r: r["code"]))


def _listing_exchange(gen: Generation) -> Row:
    """The exchange the record's stock trades on (its ticker's), else a weighted draw."""
    def pick() -> Row:
        listed = _by_acronym().get(str(gen.scope.instrument("stock").exchange).upper())
        return listed if listed is not None else gen.rng.choice(_weighted_exchanges())

    found: Row = gen.scope.once("stock_exchange", pick, inherit=True)
    return found


def _venue(gen: Generation) -> Row:
    """One exchange of a list of exchanges: list items walk the table from a seeded start."""
    rows = exchanges()
    found: Row = gen.scope.once(
        "stock_exchange", lambda: rows[(gen.draw_offset + (gen.scope.index or 0)) % len(rows)], inherit=True)
    return found


_MIC_FIELDS = ("mic", "mic_code", "operating_mic", "exchange_mic")
_NAME_FIELDS = ("name", "exchange_name")
Step = Callable[[dict[str, Any], "Generation", "int | None"], None]


@functools.lru_cache(maxsize=1)
def _by_mic() -> dict[str, Row]:
    return {str(r["mic"]): r for r in exchanges()}


def exchange_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a record with a MIC agree with that exchange: an exchange's record
    takes its name, acronym, seat, country and time zone; a listing's (a symbol beside its
    exchange's MIC) keeps its own name and takes the exchange's country and currency."""
    mic_key = next((k for k in _MIC_FIELDS if k in props), None)
    words = set(entity.split("_")) | set(name.split("_"))
    if mic_key is None or words & _CRYPTO_WORDS:
        return None
    listing = bool({"symbol", "ticker"} & set(props))
    if not listing and ("exchange" not in {w.rstrip("s") for w in words} or not set(_NAME_FIELDS) & set(props)):
        return None
    key, skip = mic_key, frozenset(("name", "exchange_name", "city") if listing else ())

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        row = _by_mic().get(str(record.get(key)))
        if row is None:
            return
        country = gen.facts.reference.country(str(row["country_code"]))
        facts = {"name": row["name"], "exchange_name": row["name"], "acronym": row["acronym"],
                 "country_code": row["country_code"], "city": row["city"], "timezone": row["timezone"],
                 "currency": row["currency"], "country": country["name"] if country else None}
        for field, value in facts.items():
            if field not in skip and isinstance(record.get(field), str) and value is not None:
                record[field] = value

    return step


def _coded(file: str, table: str) -> Callable[[Generation], Row]:
    def row(gen: Generation) -> Row:
        rows = code_table(file, table)
        found: Row = gen.scope.once(f"code:{table}", lambda: gen.rng.choice(rows), inherit=True)
        return found

    return row


_US_SIC = _coded("industry_codes.json", "us_sic")
_UK_SIC = _coded("industry_codes.json", "uk_sic")
_ICD10 = _coded("medical_codes.json", "icd10")
_ATC = _coded("medical_codes.json", "atc")

# Browsers' current majors with their build numbers (facts of the release channels), and the
# platforms each ships on, written as the browser writes its platform token.
_CHROME = (("128", "6613"), ("129", "6668"), ("130", "6723"), ("131", "6778"), ("132", "6834"), ("133", "6943"))
_DESKTOPS = ("Windows NT 10.0; Win64; x64", "Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 10_15_7",
             "X11; Linux x86_64")
_PHONES = ("Linux; Android 14; Pixel 8", "Linux; Android 14; SM-S921B", "Linux; Android 13; SM-A536B",
           "Linux; Android 15; Pixel 9 Pro")
_WEBKIT = "AppleWebKit/537.36 (KHTML, like Gecko)"


def _chrome(gen: Generation) -> str:
    major, build = gen.rng.choice(_CHROME)
    return f"Mozilla/5.0 ({gen.rng.choice(_DESKTOPS)}) {_WEBKIT} Chrome/{major}.0.{build}.{gen.rng.randint(40, 180)} Safari/537.36"


def _edge(gen: Generation) -> str:
    major, build = gen.rng.choice(_CHROME)
    patch = gen.rng.randint(40, 120)
    return (f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) {_WEBKIT} Chrome/{major}.0.0.0 Safari/537.36 "
            f"Edg/{major}.0.{build}.{patch}")


def _android(gen: Generation) -> str:
    major, _ = gen.rng.choice(_CHROME)
    return f"Mozilla/5.0 ({gen.rng.choice(_PHONES)}) {_WEBKIT} Chrome/{major}.0.0.0 Mobile Safari/537.36"


def _firefox(gen: Generation) -> str:
    version = gen.rng.randint(128, 134)
    platform = gen.rng.choice(("Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 10.15", "X11; Linux x86_64",
                               "X11; Ubuntu; Linux x86_64"))
    return f"Mozilla/5.0 ({platform}; rv:{version}.0) Gecko/20100101 Firefox/{version}.0"


def _safari(gen: Generation) -> str:
    major, minor = gen.rng.choice(((17, 6), (18, 0), (18, 1), (18, 2), (18, 3)))
    version = f"{major}.{minor}"
    if gen.rng.random() < 0.5:
        return (f"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                f"Version/{version} Safari/605.1.15")
    ios = f"{major}_{minor}"
    return (f"Mozilla/5.0 (iPhone; CPU iPhone OS {ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            f"Version/{version} Mobile/15E148 Safari/604.1")


# Roughly the browsers' shares of web traffic.
_BROWSERS = (_chrome, _chrome, _chrome, _chrome, _android, _android, _safari, _safari, _edge, _firefox)


def user_agent(gen: Generation) -> str:
    """A browser's User-Agent header, its engine, version and platform tokens consistent."""
    return gen.rng.choice(_BROWSERS)(gen)


FACT_CODE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "exchange_mic": lambda g: _listing_exchange(g)["mic"],
    "exchange_acronym": lambda g: _listing_exchange(g)["acronym"],
    "exchange_name": lambda g: _listing_exchange(g)["name"],
    "venue_mic": lambda g: _venue(g)["mic"],
    "venue_acronym": lambda g: _venue(g)["acronym"],
    "venue_name": lambda g: _venue(g)["name"],
    "sic_code": lambda g: _US_SIC(g)["code"],
    "sic_description": lambda g: _US_SIC(g)["description"],
    "uk_sic_code": lambda g: _UK_SIC(g)["code"],
    "icd10_code": lambda g: _ICD10(g)["code"],
    "icd10_description": lambda g: _ICD10(g)["description"],
    "atc_code": lambda g: _ATC(g)["code"],
    "atc_substance": lambda g: _ATC(g)["description"],
    "user_agent": user_agent,
}

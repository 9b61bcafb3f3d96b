"""Numbers a reader checks on sight: units that convert, parts within wholes, labels that count.

* ``WeiIsEther``: a balance or value in wei is an integer string (or integer), and the same
  amount in ether beside it is that many wei over 10^18. The ether figure is the one drawn
  at a believable size, so the wei follows it.
* ``EpisodeRuntime``: an anime episode runs 20 to 30 minutes and a movie 60 to 150 (Kitsu's
  ``episodeLength`` and an episode's ``length``); ``totalLength`` is the episodes times their
  length (an ``invariants`` rule).
* ``EuVatOnly``: a country outside the EU has no EU VAT rate, so its rate is 0 and its price
  including VAT is its price excluding it; the EU members are data
  (``tool_specs/reference/eu_vat.json``).
* ``VatPrice``: the price including VAT is the price excluding it times (1 + rate); the amount
  asked is the net price, or the gross one when the call sets ``incl``.
* ``WatchFollowsStatus``: a completed title has watched all its episodes, a planned one none.
* ``IndicatorCounts``: an address validation's indicator agrees with its candidates: a valid
  address has exactly one, an ambiguous one several, and no match none.

Derived and ordered rules of the same families (watched ≤ total episodes, percent watched,
gas used ≤ gas limit, fee = gas used × gas price, a sale's total is its base price less its discount) are declared beside them in ``invariants.RULES``.
These join ``invariants.RULES``: enforced per record, checked by the audit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources
from typing import Any

WEI = ("result_wei", "balance_wei", "value_wei", "wei", "amount_wei")
ETHER = ("balance_eth", "balance_ether", "value_eth", "ether", "eth", "amount_eth")
_WEI_PER_ETHER = Decimal(10) ** 18


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((name for name in names if name in record), None)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def wei_of(ether: float) -> int:
    return int(Decimal(repr(ether)) * _WEI_PER_ETHER)


@dataclass(frozen=True)
class WeiIsEther:
    name: str = "wei is ether times 10^18"
    field: tuple[str, ...] = WEI

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, float] | None:
        wei, eth = _first(record, WEI), _first(record, ETHER)
        ether = _number(record[eth]) if eth is not None else None
        if wei is None or ether is None or not isinstance(record[wei], (str, int)) or isinstance(record[wei], bool):
            return None
        return wei, ether

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is not None:
            wei = wei_of(abs(pair[1]))
            record[pair[0]] = str(wei) if isinstance(record[pair[0]], str) else wei

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is None:
            return None
        try:
            wei = Decimal(str(record[pair[0]]))
        except InvalidOperation:
            return f"{self.name}: {pair[0]}={record[pair[0]]!r} is not a whole number of wei"
        if wei != wei.to_integral_value() or abs(wei / _WEI_PER_ETHER - Decimal(repr(abs(pair[1])))) > Decimal("1e-9"):
            return f"{self.name}: {pair[0]}={record[pair[0]]} for {pair[1]} ether"
        return None


ANIME_EPISODE = ("episodeLength", "episode_length")
EPISODE_LENGTH = ("length",)
_EPISODE_MARKS = ("seasonNumber", "airdate", "relativeNumber")  # Kitsu's episode record
_MOVIE = frozenset({"movie", "film"})
_SUBTYPE = ("subtype", "showType", "type", "format")


def _range(record: Mapping[str, Any]) -> tuple[int, int]:
    kind = next((record[k] for k in _SUBTYPE if isinstance(record.get(k), str)), "")
    return (60, 150) if kind.lower() in _MOVIE else (20, 30)


@dataclass(frozen=True)
class EpisodeRuntime:
    name: str = "an anime episode's runtime is realistic"
    field: tuple[str, ...] = ANIME_EPISODE + EPISODE_LENGTH

    def _key(self, record: Mapping[str, Any]) -> str | None:
        key = _first(record, ANIME_EPISODE)
        if key is None and "length" in record and any(m in record for m in _EPISODE_MARKS):
            key = "length"
        if key is None or isinstance(record[key], bool) or not isinstance(record[key], int):
            return None
        return key

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        key = self._key(record)
        if key is None:
            return
        low, high = _range(record)
        if not low <= record[key] <= high:
            record[key] = low + abs(record[key]) % (high - low + 1)  # the drawn minutes, folded into the range

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        key = self._key(record)
        if key is None:
            return None
        low, high = _range(record)
        if not low <= record[key] <= high:
            return f"{self.name}: {key}={record[key]} minutes, outside {low}-{high}"
        return None


@lru_cache(maxsize=1)
def eu_members() -> frozenset[str]:
    data = json.loads((resources.files("tool_specs") / "reference" / "eu_vat.json").read_text())
    return frozenset(data["members"])


VAT_RATE = ("vat_rate", "standard_rate", "rate", "tax_rate")
PRICE_EXCL = ("price_excl_vat", "price_excluding_vat", "net_price", "price_excl_tax")
PRICE_INCL = ("price_incl_vat", "price_including_vat", "gross_price", "price_incl_tax")
_COUNTRY = ("country_code", "countryCode")


@dataclass(frozen=True)
class EuVatOnly:
    name: str = "a country outside the EU has no EU VAT"
    field: tuple[str, ...] = ("vat_rate", "standard_rate")

    def _outside(self, record: Mapping[str, Any]) -> str | None:
        country, rate = _first(record, _COUNTRY), _first(record, ("vat_rate", "standard_rate"))
        if country is None or rate is None or not isinstance(record[country], str) or _number(record[rate]) is None:
            return None
        return rate if record[country].upper() not in eu_members() else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        rate = self._outside(record)
        if rate is not None:
            record[rate] = type(record[rate])(0)

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        rate = self._outside(record)
        if rate is not None and record[rate] != 0:
            return f"{self.name}: {record.get('country_code')} has {rate}={record[rate]}"
        return None


@dataclass(frozen=True)
class VatPrice:
    """Prices either side of VAT agree with the rate; the amount asked is the net price, or the
    gross one when the call says ``incl`` (vatlayer's flag: the amount already holds the VAT)."""

    name: str = "prices excluding and including VAT follow the rate and the amount asked"
    field: tuple[str, ...] = (*PRICE_EXCL, *PRICE_INCL)

    def _want(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, float, str, float] | None:
        excl, incl, rate = _first(record, PRICE_EXCL), _first(record, PRICE_INCL), _first(record, VAT_RATE)
        if excl is None or incl is None or rate is None or _number(record[rate]) is None:
            return None
        factor = 1 + float(record[rate]) / 100  # rates are percentages, as vatlayer gives them
        gross = args.get("incl") in (True, 1, "1", "true")
        amount = _number(args.get("amount"))
        if gross:
            base = amount if amount is not None else _number(record[incl])
            return None if base is None else (incl, round(base, 2), excl, round(base / factor, 2))
        base = amount if amount is not None else _number(record[excl])
        return None if base is None else (excl, round(base, 2), incl, round(base * factor, 2))

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record, args)
        if want is not None:
            record[want[0]], record[want[2]] = want[1], want[3]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record, args)
        if want is None:
            return None
        for key, value in ((want[0], want[1]), (want[2], want[3])):
            have = _number(record[key])
            if have is None or abs(have - value) > max(0.011, abs(value) * 0.005):
                return f"{self.name}: {key}={record[key]} but expected {value}"
        return None


INDICATOR = ("indicator", "validation_indicator", "match_indicator", "address_indicator")
CANDIDATES = ("candidates", "candidate", "address_candidates", "matches")


def indicated(value: str) -> str | None:
    """What an indicator says of the candidates: "none", "one" or "many" (None: it says nothing)."""
    text = value.lower()
    if text.startswith(("no", "invalid", "unmatched")) or "none" in text or "nomatch" in text:
        return "none"
    if "ambig" in text or "multiple" in text:
        return "many"
    if "valid" in text or "exact" in text or "single" in text:
        return "one"
    return None


@dataclass(frozen=True)
class IndicatorCounts:
    name: str = "an address indicator agrees with its candidates"
    field: tuple[str, ...] = INDICATOR

    def _pair(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        key, listed = _first(record, INDICATOR), _first(record, CANDIDATES)
        if key is None or listed is None or not isinstance(record[key], str) or not isinstance(record[listed], list):
            return None
        said = indicated(record[key])
        return None if said is None else (said, listed)

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record)
        if pair is None:
            return
        said, listed = pair
        rows = record[listed]
        if said == "none":
            record[listed] = []
        elif said == "one" or len(rows) < 2:
            record[listed] = rows[:1]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record)
        if pair is None:
            return None
        said, listed = pair
        count = len(record[listed])
        if (said == "none" and count) or (said == "one" and count > 1) or (said == "many" and count == 0):
            return f"{self.name}: {record[_first(record, INDICATOR) or '']!r} with {count} candidates"
        return None


WATCHED = ("watched_episodes_count", "watched_episodes", "episodes_watched", "watchedEpisodes", "progress_episodes",
           "watched_count")
EPISODES = ("total_episodes_count", "total_episodes", "episodes_total", "totalEpisodes", "aired_episodes_count")
_DONE = frozenset({"completed", "complete", "finished", "watched"})
_UNSTARTED = frozenset({"plantowatch", "plan_to_watch", "planned", "planning", "not_started"})


@dataclass(frozen=True)
class WatchFollowsStatus:
    """A completed title has watched every episode; one still planned has watched none."""

    name: str = "watch progress follows its status"
    field: tuple[str, ...] = WATCHED

    def _want(self, record: Mapping[str, Any]) -> tuple[str, int] | None:
        watched, total, status = _first(record, WATCHED), _first(record, EPISODES), record.get("status")
        if watched is None or total is None or not isinstance(status, str) or not isinstance(record[total], int):
            return None
        state = status.strip().lower()
        if state in _DONE:
            return watched, record[total]
        return (watched, 0) if state in _UNSTARTED else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record)
        if want is not None and isinstance(record[want[0]], int):
            record[want[0]] = want[1]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record)
        if want is not None and record[want[0]] != want[1]:
            return f"{self.name}: {want[0]}={record[want[0]]} for a {record['status']!r} title of {want[1]}"
        return None


MEASURE_RULES: tuple[Any, ...] = (WeiIsEther(), EpisodeRuntime(), EuVatOnly(), VatPrice(), IndicatorCounts(), WatchFollowsStatus())

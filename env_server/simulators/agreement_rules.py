"""Rules that make one record's fields agree: an order's fill follows its status, and an
abbreviation spells the name beside it.

* ``FillFollowsStatus``: an order still new, accepted, pending or rejected has filled nothing;
  a filled (or closed) one has filled all it asked for; a partial fill is some of it. A
  cancelled order is no longer live. (``invariants`` keeps the fill at most the order first.)
* ``AbbreviationSpells``: ``abbreviation``, ``abbrev``, ``teamAbbrev`` and the like are the name's
  initials for a long name ("Bay Area Rapid Transit": "BART") and the first three letters of a
  short one's first word, as leagues write clubs ("Ottawa Senators": "OTT"). An abbreviation
  the call sent stays.
* ``UrlOnItsDomain``: a record's ``url`` is on its ``domain`` (a scanned page, a visited link):
  the domain is the url's host. A short link's domain is the shortener's, so it is left be.
* ``PositionTypeFollowsCode``: a baseball player's position type is his position's group, and an
  active roster lists active players.

They have the shape of ``invariants`` rules (``field`` names the fields that bind them,
``enforce`` repairs a generated record, ``violation`` reports a broken one) and join
``invariants.RULES``, so the generator, the audit and the property tests share them.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ORDERED = ("qty", "quantity", "origQty", "orig_qty", "original_amount", "original_quantity", "order_qty")
FILLED = ("filled_qty", "filled_quantity", "executedQty", "executed_qty", "executed_amount", "filled_size", "cum_qty",
          "cumQty")
_STATUS = ("status", "state", "order_status")
_UNFILLED = frozenset({"new", "accepted", "pending_new", "pending", "rejected", "open", "submitted", "received",
                       "pending_cancel", "held", "queued"})
_ALL_FILLED = frozenset({"filled", "closed", "done", "executed", "complete", "completed", "fully_filled"})
_PARTIAL = frozenset({"partially_filled", "partial", "partially_executed", "partial_fill"})


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        if name in record:
            return name
    return None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class FillFollowsStatus:
    name: str = "an order's fill follows its status"
    field: tuple[str, ...] = FILLED + ("is_live",)

    def _want(self, record: Mapping[str, Any]) -> tuple[str, float, bool] | None:
        """(filled field, wanted fill, whether it is a bound: a partial fill under the whole)."""
        filled, ordered, status = _first(record, FILLED), _first(record, ORDERED), _first(record, _STATUS)
        if filled is None or ordered is None or status is None or not isinstance(record[status], str):
            return None
        whole, have = _number(record[ordered]), _number(record[filled])
        if whole is None or have is None:
            return None
        state = record[status].strip().lower()
        if state in _UNFILLED:
            return filled, 0.0, False
        if state in _ALL_FILLED:
            return filled, whole, False
        if state in _PARTIAL and not 0 < have < whole:
            return filled, round(whole / 2, 2) if isinstance(record[filled], float) else whole // 2, False
        return None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record)
        if want is not None:
            key, value, _ = want
            record[key] = type(record[key])(value)
        if record.get("is_cancelled") is True and record.get("is_live") is True:
            record["is_live"] = False

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record)
        if want is not None and abs(float(record[want[0]]) - want[1]) > 0.011:
            return f"{self.name}: {want[0]}={record[want[0]]} but the status calls for {want[1]:g}"
        if record.get("is_cancelled") is True and record.get("is_live") is True:
            return f"{self.name}: a cancelled order is not live"
        return None


ABBREVIATIONS = ("abbreviation", "abbrev", "abbr", "teamAbbrev", "team_abbrev", "team_abbreviation",
                 "name_abbreviation")
_NAMED = ("full_name", "fullName", "name", "teamName", "team_name", "long_name", "longName", "agency_name",
          "title", "display_name")
_SMALL = frozenset({"of", "the", "and", "for", "a", "an", "de", "&", "on", "in", "at", "to"})
_WORD = re.compile(r"[A-Za-z0-9]+")
# What a listed code looks like ("PHX"): the audit, which does not see the schema, leaves it be.
_LISTED = re.compile(r"^[A-Z]{2,5}$")


def abbreviation_of(name: str) -> str:
    """Initials of a name of three or more words, else its first word's first three letters."""
    words = [w for w in _WORD.findall(name) if w.lower() not in _SMALL]
    if not words:
        return ""
    if len(words) >= 3:
        return "".join(w[0] for w in words).upper()[:6]
    return words[0][:3].upper()


@dataclass(frozen=True)
class AbbreviationSpells:
    name: str = "an abbreviation spells its name"
    field: tuple[str, ...] = ABBREVIATIONS
    open_fields_only: bool = True  # an abbreviation the schema lists (a league's real codes) stays as drawn

    def _pair(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> tuple[str, str] | None:
        short, named = _first(record, ABBREVIATIONS), _first(record, _NAMED)
        if short is None or named is None:
            return None
        value, full = record[short], record[named]
        if not isinstance(value, str) or not isinstance(full, str) or not abbreviation_of(full):
            return None
        if any(value == sent for sent in args.values()) or _LISTED.match(value):
            return None  # the call asked for this abbreviation, or it reads like a listed one: it is the record's
        return short, named

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        pair = self._pair(record, args)
        if pair is not None:
            record[pair[0]] = abbreviation_of(record[pair[1]])

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        pair = self._pair(record, args)
        if pair is not None and record[pair[0]] != abbreviation_of(record[pair[1]]):
            return f"{self.name}: {pair[0]}={record[pair[0]]!r} for {pair[1]}={record[pair[1]]!r}"
        return None


_URLS = ("url", "page_url", "scanned_url")
_DOMAINS = ("domain", "page_domain", "hostname")
# A short link's domain is the shortener's (tinyurl.com), not its destination's.
_SHORT_LINKS = ("tiny_url", "short_url", "shortUrl", "short_link", "shortLink", "alias")
_HOST = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")
_URL_HOST = re.compile(r"^https?://(?P<host>[^/:?#]+)")


@dataclass(frozen=True)
class UrlOnItsDomain:
    """A record's ``url`` and its ``domain`` name one site (a scan of a page, a visited
    link): the domain is the url's host, less a leading ``www.``."""

    name: str = "a url is on its record's domain"
    field: tuple[str, ...] = _DOMAINS

    def _want(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        url, domain = _first(record, _URLS), _first(record, _DOMAINS)
        if url is None or domain is None or _first(record, _SHORT_LINKS) is not None:
            return None
        value, have = record[url], record[domain]
        if not isinstance(value, str) or not isinstance(have, str) or not _HOST.match(have.lower()):
            return None
        found = _URL_HOST.match(value)
        host = found["host"].lower() if found is not None else ""
        host = host[4:] if host.startswith("www.") else host
        return (domain, host) if _HOST.match(host) else None

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        want = self._want(record)
        if want is not None:
            record[want[0]] = want[1]

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        want = self._want(record)
        if want is not None and record[want[0]].lower() != want[1]:
            return f"{self.name}: {want[0]}={record[want[0]]!r} but the url is on {want[1]}"
        return None


def page_on_domain(record: Mapping[str, Any]) -> str | None:
    """The record's url when it is the page of the record's own ``domain`` (a scanned page),
    which is the site's, not the provider's."""
    want = UrlOnItsDomain()._want(record)
    if want is None or str(record[want[0]]).lower() != want[1]:
        return None
    url = _first(record, _URLS)
    return str(record[url]) if url is not None else None


# A baseball position's code -> the group MLB's roster files it under.
POSITION_TYPES = {"P": "Pitcher", "SP": "Pitcher", "RP": "Pitcher", "C": "Catcher", "1B": "Infielder",
                  "2B": "Infielder", "3B": "Infielder", "SS": "Infielder", "IF": "Infielder", "LF": "Outfielder",
                  "CF": "Outfielder", "RF": "Outfielder", "OF": "Outfielder", "DH": "Hitter", "PH": "Hitter",
                  "TWP": "Two-Way Player"}
POSITION_CODES = ("position_abbreviation", "positionAbbreviation", "position_code", "positionCode",
                  "primary_position_abbreviation", "primaryPositionAbbreviation")
POSITION_GROUPS = ("position_type", "positionType", "primary_position_type", "primaryPositionType")
_ROSTER_KINDS = ("rosterType", "roster_type")
_ROSTER_STATUS = ("status_code", "statusCode")


def _mostly_active(record: Mapping[str, Any], status: str) -> bool:
    """Whether a player of a wider roster is active: five in six are (fixed by his other fields)."""
    key = "|".join(str(v) for k, v in record.items() if k != status and isinstance(v, (str, int)))
    return zlib.crc32(key.encode()) % 6 != 0


@dataclass(frozen=True)
class PositionTypeFollowsCode:
    """A player's position type is the group of his position (SS: Infielder, P: Pitcher), and
    everyone on an active roster is active ("A"), as MLB's roster lists them."""

    name: str = "a position type follows its position"
    field: tuple[str, ...] = POSITION_GROUPS + _ROSTER_STATUS

    def _wants(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> dict[str, str]:
        code = _first(record, POSITION_CODES)
        if code is None or not isinstance(record[code], str):
            return {}
        wants: dict[str, str] = {}
        group = _first(record, POSITION_GROUPS)
        if group is not None and record[code].upper() in POSITION_TYPES:
            wants[group] = POSITION_TYPES[record[code].upper()]
        status = _first(record, _ROSTER_STATUS)
        roster = next((v for k in _ROSTER_KINDS if isinstance(v := args.get(k), str)), "active")
        if status is not None and (roster.lower() == "active" or _mostly_active(record, status)):
            wants[status] = "A"  # a 40-man or depth roster names a few injured or optioned players too
        return wants

    def enforce(self, record: dict[str, Any], args: Mapping[str, Any]) -> None:
        record.update(self._wants(record, args))

    def violation(self, record: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
        wrong = [f"{k}={record[k]!r} (want {v!r})" for k, v in self._wants(record, args).items() if record[k] != v]
        return f"{self.name}: {', '.join(wrong)}" if wrong else None


AGREEMENT_RULES: tuple[Any, ...] = (FillFollowsStatus(), AbbreviationSpells(), UrlOnItsDomain(), PositionTypeFollowsCode())

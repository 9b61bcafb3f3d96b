"""Weather station reports as aviation weather services print them.

A METAR's raw text is its fields in the WMO's order, not a random code: ``METAR KJFK
151251Z 09205KT 10SM M09/M09 A2968`` is station, day and time, wind direction and speed
in knots, visibility, temperature over dew point (``M`` for minus) and the altimeter (``A``
in hundredths of inches of mercury in North America, ``Q`` in hectopascals elsewhere).

``station_list(gen)`` is the stations a call asks for (``ids=["KJFK", "EGLL"]``); a report
list answers one report per station asked, in order (``records``, ``plans``).
``metar_step`` is asked once per object schema (``record_steps``) and composes the raw text
of a record with a raw report field beside the fields it is made of.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.reference import AirportFact

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

STATION_LIST_ARGS = ("ids", "stations", "station_ids", "icao_ids", "airports", "station")
_RAW = ("rawOb", "raw_ob", "raw_text", "rawText", "raw_metar", "metar")
_STATION = ("icaoId", "icao_id", "station_id", "stationId", "station", "icao")
# Fields that name a report's station: a list of them answers the stations asked, one each.
STATION_FIELDS = frozenset({*_STATION, "iataId", "iata_id"})
_TIME = ("obsTime", "obs_time", "observation_time", "observed", "reportTime", "report_time")
_NORTH_AMERICA = ("K", "C", "P", "T")  # ICAO prefixes that report the altimeter in inches


def station_list(gen: Generation) -> tuple[AirportFact, ...]:
    """The airports a call's station list names (ICAO or IATA codes, a list or "KJFK,EGLL")."""
    if gen.snaked_args.keys().isdisjoint(STATION_LIST_ARGS):  # most calls: asked every record, so cheap
        return ()
    scope = gen.scope
    while scope.parent is not None:  # once per call: kept in its outermost scope
        scope = scope.parent
    found: tuple[AirportFact, ...] = scope.once("stations", lambda: _stations(gen))
    return found


def _stations(gen: Generation) -> tuple[AirportFact, ...]:
    ref = gen.facts.reference
    for key in STATION_LIST_ARGS:
        value = gen.snaked_args.get(key)
        codes = value if isinstance(value, list) else value.replace(" ", ",").split(",") if isinstance(
            value, str) else []
        # Plain "ids" are stations only as ICAO codes ("KJFK"): other APIs' ids are coins, users…
        sizes = (4,) if key == "ids" else (3, 4)
        hits = tuple(a for code in codes if isinstance(code, str) and len(code.strip()) in sizes
                     and code.strip().isalnum() and (a := ref.airport(code.strip().upper())) is not None)
        if hits:
            return hits
    return ()


def _first(record: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    return next((k for k in names if k in record), None)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _celsius(value: float) -> str:
    degrees = round(value)
    return f"M{abs(degrees):02d}" if degrees < 0 else f"{degrees:02d}"


def _moment(value: Any, fallback: dt.datetime) -> dt.datetime:
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
        except ValueError:
            return fallback
    if isinstance(value, int) and not isinstance(value, bool):
        return dt.datetime.fromtimestamp(value, dt.UTC).replace(tzinfo=None)
    return fallback


def latest_report(now: dt.datetime) -> dt.datetime:
    """When the latest routine report was made: stations report hourly, at 51 past."""
    hour = now.replace(minute=51, second=0, microsecond=0)
    return hour if now >= hour else hour - dt.timedelta(hours=1)


def compose_metar(record: Mapping[str, Any], station: str, now: dt.datetime) -> str:
    """The raw METAR the record's fields make."""
    when = _moment(record.get(_first(record, _TIME) or ""), now)
    parts = ["METAR", station, when.strftime("%d%H%MZ")]
    wdir, wspd = _number(record.get("wdir")), _number(record.get("wspd"))
    if wdir is not None and wspd is not None:
        parts.append("00000KT" if wspd < 1 else f"{int(round(wdir / 10) * 10) % 360 or 360:03d}{round(wspd):02d}KT")
    visib = 10.0 if record.get("visib") == "10+" else _number(record.get("visib"))
    if visib is not None and station.startswith(_NORTH_AMERICA):
        parts.append("10SM" if visib >= 10 else f"{round(visib)}SM" if visib >= 1 else "1/2SM")
    elif visib is not None:  # elsewhere in metres, 9999 for 10 km or more
        parts.append(f"{min(9999, round(visib * 1609.34 / 100) * 100):04d}")
    temp, dewp = _number(record.get("temp")), _number(record.get("dewp"))
    if temp is not None and dewp is not None:
        parts.append(f"{_celsius(temp)}/{_celsius(dewp)}")
    altim = _number(record.get("altim"))
    if altim is not None:
        parts.append(f"A{round(altim * 2.953):04d}" if station.startswith(_NORTH_AMERICA) else f"Q{round(altim):04d}")
    return " ".join(parts)


def cap_visibility(record: dict[str, Any]) -> None:
    """Visibility is reported up to 10 statute miles: more reads "10+" (a number stops at 10)."""
    visib = _number(record.get("visib"))
    if visib is None or visib < 10:
        return
    record["visib"] = "10+" if isinstance(record["visib"], str) else 10.0


def metar_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a report's raw METAR from its own fields, or None for records
    with no raw report beside a station and a temperature."""
    raw, station = _first(props, _RAW), _first(props, _STATION)
    if raw is None or station is None or not {"temp", "dewp"} <= set(props):
        return None

    when = _first(props, _TIME)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        code = record.get(station)
        cap_visibility(record)
        temp, dewp = _number(record.get("temp")), _number(record.get("dewp"))
        if temp is not None and dewp is not None and dewp > temp:  # the dew point is at most the temperature
            record["temp"], record["dewp"] = record["dewp"], record["temp"]
        if when is not None and isinstance(record.get(when), str):
            record[when] = latest_report(gen.now).strftime("%Y-%m-%dT%H:%M:%SZ")
        if isinstance(code, str) and isinstance(record.get(raw), str):
            record[raw] = compose_metar(record, code, gen.now)

    return step

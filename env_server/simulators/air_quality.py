"""One air per place and hour: the concentrations an air-quality record reports, and the
indices, dominant pollutant and category that follow from them.

``draw_air`` gives a place's air at a moment, in µg/m³: a level typical of the country
(``air_scales.typical_pm25``), larger cities dirtier, winters smokier and summers richer in
ozone, particles peaking at the rush hours and ozone in the afternoon, one weather-driven
swing per day. It hashes the session seed, the place and the hour, so every tool of a
session reports the same air for Delhi at 08:00, and a station list varies about it.

``air_step(name, entity, props)`` is asked once per object schema (``record_steps``). For a
record that says something about the air (``air_fields.air_layout``) it returns a step that
redraws the record from one air: its concentrations in their units, each sub-index, the
index (the largest sub-index of the pollutants the record shows, on each scale it reports),
the dominant pollutant (the one that gives the index), the category (the index's band), and
for a current reading the hour it was taken (the last full hour). A series item (a forecast
hour or day) is the air at its own moment. Whatever the schema bounds (a maximum of 150 for
PM2.5, a category enum that stops at "Unhealthy"), the whole air is scaled down to fit, so
the fields still agree.
"""

from __future__ import annotations

import datetime as dt
import math
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.air_fields import (
    VALUE_ALIASES,
    AirFieldSpec,
    AirLayoutSpec,
    LabelFieldSpec,
    MeasureSpec,
    Path,
    air_layout,
    pollutant_of,
    unit_of,
)
from env_server.simulators.air_scales import POLLUTANTS, UNIT_TEXT, convert, scales, typical_pm25
from env_server.simulators.uv_kinds import uv_at

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.reference import PlaceFact

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
Air = dict[str, float]  # pollutant -> µg/m³
_DAY = dt.timedelta(days=1)
_TAU = 2 * math.pi


def _swing(key: str, *parts: object) -> float:
    """A stable number in [-1, 1), peaked about 0, for one place and moment of a session."""
    a = zlib.crc32(f"{key}|{'|'.join(map(str, parts))}".encode())
    return ((a & 0xFFFF) + (a >> 16)) / 65536 - 1


def draw_air(session_seed: int, place: PlaceFact, when: dt.datetime, daily: bool, station: int | None = None) -> Air:
    """The air at ``place`` at ``when`` (a day's mean when ``daily``), in µg/m³ per pollutant."""
    key = f"{session_seed}|{place.name}|{place.country_code}"
    typical, dusty = typical_pm25(place.country_code)
    size = min(1.3, max(0.7, 0.75 + 0.1 * math.log10(max(place.population, 10_000) / 100_000)))
    winter = math.cos(_TAU * (when.timetuple().tm_yday - 15) / 365.25) * (-1 if place.latitude < 0 else 1)
    tropics = abs(place.latitude) < 15
    smoke = 0.1 if tropics else 0.55 if typical >= 40 else 0.3  # winter stoves and inversions
    day = when.date()
    pm25 = typical * size * (1 + smoke * winter) * math.exp(0.45 * _swing(key, day, "d"))
    no2 = (8 + 0.3 * typical) * size * (1 + (0 if tropics else 0.2 * winter)) * math.exp(0.3 * _swing(key, day, "n"))
    o3 = (55 - (10 if tropics else 25) * winter) * math.exp(0.25 * _swing(key, day, "o"))
    if not daily:
        solar = (when.hour + when.minute / 60 + place.longitude / 15) % 24
        rush = math.cos(_TAU * (solar - 8) / 12)  # peaks at 08:00 and 20:00
        pm25 *= (1 + 0.12 * rush) * math.exp(0.1 * _swing(key, when, "h"))
        no2 *= 1 + 0.3 * rush
        o3 *= 1 + 0.45 * math.cos(_TAU * (solar - 15) / 24)  # afternoon sun
    if station is not None:
        pm25 *= math.exp(0.18 * _swing(key, station, "s"))
        no2 *= math.exp(0.2 * _swing(key, station, "t"))
    o3 *= max(0.35, 1 - no2 / 160)  # fresh NO2 eats ozone in a polluted street
    pm10 = pm25 * ((2.3 if dusty else 1.6) + 0.3 * _swing(key, day, "c"))
    so2 = (2 + 0.12 * typical) * math.exp(0.5 * _swing(key, day, "s"))
    co = (250 + 12 * pm25) * math.exp(0.2 * _swing(key, day, "m"))
    return {"pm25": pm25, "pm10": pm10, "o3": o3, "no2": no2, "so2": so2, "co": co}


def shown_value(value_ugm3: float, pollutant: str, unit: str, integer: bool) -> int | float:
    """A concentration as a record writes it: in its unit, to the digits that unit is read to."""
    value = convert(value_ugm3, pollutant, "ugm3", unit)
    if integer:
        return int(round(value))
    return round(value, 3 if unit == "ppm" else 2 if unit == "mgm3" else 1)


def sub_indices(record: Mapping[str, Any], layout: AirLayoutSpec, air: Air, scale: str) -> dict[str, int]:
    """Each pollutant's sub-index on ``scale``: from the record's own concentration when it shows
    one, as a reader would compute it, else from the air; from the record's own sub-index field
    when it shows that instead (AQICN's ``iaqi``)."""
    spec = scales()[scale]
    found: dict[str, int] = {}
    for field in layout.concentrations:
        value = read_path(record, field.path)
        if field.pollutant and isinstance(value, (int, float)) and not isinstance(value, bool):
            index = spec.sub_index(field.pollutant, float(value), field.unit)
            if index is not None:
                found.setdefault(field.pollutant, index)
    for field in layout.indices:
        value = read_path(record, field.path)
        if field.pollutant and field.scale == scale and isinstance(value, (int, float)) and not isinstance(value, bool):
            found.setdefault(field.pollutant, int(value))
    for pollutant in layout.scope:
        if pollutant not in found and (index := spec.sub_index(pollutant, air[pollutant], "ugm3")) is not None:
            found[pollutant] = index
    return {p: found[p] for p in layout.scope if p in found}


def read_path(record: Mapping[str, Any], path: Path) -> Any:
    value: Any = record
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _put(record: dict[str, Any], path: Path, value: Any) -> None:
    holder: Any = record
    for key in path[:-1]:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if isinstance(holder, dict) and path[-1] in holder:
        holder[path[-1]] = value


def choose(choices: tuple[str, ...] | None, wanted: tuple[str, ...]) -> str | None:
    """The first of ``wanted`` an enum holds (matched without case), or the first wanted with no enum."""
    if choices is None:
        return wanted[0]
    by_low = {c.lower(): c for c in choices}
    return next((by_low[w.lower()] for w in wanted if w.lower() in by_low), None)


def _caps(layout: AirLayoutSpec) -> dict[str, float]:
    """The most of each pollutant (µg/m³) the schema's bounds leave room for."""
    caps = dict.fromkeys(POLLUTANTS, math.inf)
    for field in layout.concentrations:
        if field.pollutant and field.maximum is not None:
            caps[field.pollutant] = min(caps[field.pollutant], convert(field.maximum, field.pollutant, field.unit,
                                                                       "ugm3"))
    limits = [(f.scale, f.maximum, (f.pollutant,) if f.pollutant else layout.scope)
              for f in layout.indices if f.maximum is not None]
    # A one-pollutant record's stats bound whichever pollutant it turns out to be.
    limits += [(f.scale, f.maximum, POLLUTANTS) for f in (layout.measure.stats if layout.measure else ())
               if f.maximum is not None]
    for label in layout.categories:
        tops = [scales()[label.scale].band_top(c) for c in label.choices or ()]
        if tops and None not in tops:
            limits.append((label.scale, float(max(t for t in tops if t is not None)), layout.scope))
    for scale, top, pollutants in limits:
        for pollutant in pollutants:
            caps[pollutant] = min(caps[pollutant], scales()[scale].ceiling_ugm3(pollutant, float(top or 0)))
    return {p: c for p, c in caps.items() if c < math.inf}


def _fit(air: Air, caps: Mapping[str, float]) -> Air:
    """``air`` scaled down as a whole until every pollutant fits its cap."""
    factor = min((cap / air[p] for p, cap in caps.items() if air[p] > cap), default=1.0)
    return {p: v * factor * 0.97 for p, v in air.items()} if factor < 1.0 else air


def _reading_hour(gen: Generation) -> dt.datetime:
    """When a current reading was taken: the last full hour at or before the session's now."""
    return gen.now.replace(minute=0, second=0, microsecond=0)


def _write_concentrations(record: dict[str, Any], fields: tuple[AirFieldSpec, ...], air: Air) -> None:
    for field in fields:
        if field.pollutant:
            value = shown_value(air[field.pollutant], field.pollutant, field.unit, field.integer)
            if field.maximum is not None and value > field.maximum:
                value = type(value)(field.maximum)
            _put(record, field.path, value)


def _write_indices(record: dict[str, Any], layout: AirLayoutSpec, air: Air) -> None:
    """Sub-indices first (from the air), then each overall index, dominant pollutant and category."""
    for field in layout.indices:
        if field.pollutant:
            index = scales()[field.scale].sub_index(field.pollutant, air[field.pollutant], "ugm3") or 0
            _put(record, field.path, index if field.integer else float(index))
    wanted = {f.scale for f in layout.indices if f.pollutant is None} | {
        f.scale for f in (*layout.dominants, *layout.categories)}
    for scale in wanted:
        subs = sub_indices(record, layout, air, scale)
        if not subs:
            continue
        top = max(subs.values())
        for field in layout.indices:
            if field.pollutant is None and field.scale == scale:
                _put(record, field.path, top if field.integer else float(top))
        for label in layout.dominants:
            if label.scale == scale:
                _write_dominant(record, label, subs)
        for label in layout.categories:
            if label.scale == scale and (text := choose(label.choices, (scales()[scale].category(top),))):
                _put(record, label.path, text)


def _write_dominant(record: dict[str, Any], label: LabelFieldSpec, subs: Mapping[str, int]) -> None:
    top = max(subs.values())
    for pollutant in POLLUTANTS:
        if subs.get(pollutant) == top and (text := choose(label.choices, VALUE_ALIASES[pollutant])) is not None:
            _put(record, label.path, text)
            return


def _write_measure(record: dict[str, Any], measure: MeasureSpec, air: Air, gen: Generation, day: dt.date) -> None:
    """One pollutant's reading: particles in µg/m³, a gas in the unit the record names; black
    carbon a small share of the fine particles; AQICN's ``uvi`` the day's UV index."""
    named = record.get(measure.parameter)
    if named == "uvi":
        _write_uv(record, measure, gen, day)
        return
    pollutant = "pm25" if named == "bc" else pollutant_of(named)
    if pollutant is None:
        return
    if named == "bc":
        air = {**air, "pm25": air["pm25"] * 0.08}
    unit = unit_of(record.get(measure.units)) if measure.units else None
    if measure.units and (pollutant in ("pm25", "pm10") or unit is None):
        text = choose(measure.units_choices, (UNIT_TEXT["ugm3"], "ug/m3", "µg/m3"))
        if text is not None:
            record[measure.units] = text
            unit = "ugm3"
    if measure.value and isinstance(record.get(measure.value), (int, float)):
        record[measure.value] = shown_value(air[pollutant], pollutant, unit or "ugm3", False)
    us = scales()["us"]
    for field in measure.stats:  # a day's low, mean and high hour: in order, as sub-indices rise with the air
        share = _STAT_SHARES.get(field.path[-1].lower(), 1.0)
        index = us.sub_index(pollutant, air[pollutant] * share, "ugm3") or 0
        _put(record, field.path, index if field.integer else float(index))


_STAT_SHARES = {"min": 0.55, "max": 1.5}


def _write_uv(record: dict[str, Any], measure: MeasureSpec, gen: Generation, day: dt.date) -> None:
    """A day's UV index: none at night, its clear-sky peak at solar noon, about half that on average."""
    noon = dt.datetime.combine(day, dt.time(12)) - dt.timedelta(hours=gen.scope.point[1] / 15)
    peak = uv_at(gen, noon)
    for field in measure.stats:
        value = {"min": 0.0, "max": peak}.get(field.path[-1].lower(), peak * 0.45)
        _put(record, field.path, int(round(value)) if field.integer else round(value, 1))


def _stamp(record: dict[str, Any], stamps: tuple[Path, ...], when: dt.datetime) -> None:
    for path in stamps:
        value = read_path(record, path)
        if timeline.moment(value, path[-1]) is not None:
            _put(record, path, timeline.render_like(value, when, path[-1]))


def air_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    layout = air_layout(name, entity, props)
    if layout is None:
        return None
    caps = _caps(layout)
    daily_series = layout.series is not None and timeline.cadence(name, entity, layout.series) >= _DAY

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        when = timeline.moment(record.get(layout.series), layout.series) if layout.series and index is not None \
            else None
        current = when is None
        if when is None:
            when = _reading_hour(gen)
            _stamp(record, layout.stamps, when)
        air = _fit(draw_air(gen.session_seed, gen.scope.place, when, daily_series and not current,
                            index if current else None), caps)
        _write_concentrations(record, layout.concentrations, air)
        _write_indices(record, layout, air)
        if layout.measure is not None:
            _write_measure(record, layout.measure, air, gen, when.date())

    return step

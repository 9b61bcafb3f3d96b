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
import functools
import math
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.air_fields import MeasureSpec, Path, air_layout, pollutant_of, unit_of
from env_server.simulators.air_scales import UNIT_TEXT, scales, typical_pm25
from env_server.simulators.air_writes import Air, AirWritePlan, choose, put_path, read_path, shown_value
from env_server.simulators.uv_kinds import uv_at

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.reference import PlaceFact

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
_DAY = dt.timedelta(days=1)
_NOON = dt.time(12)
_TAU = 2 * math.pi
_MID_JANUARY = dt.date(2026, 1, 15).toordinal()  # the depth of a northern winter, any year


def _swings(text: str) -> tuple[float, float, float, float, float, float]:
    """Six stable numbers in [-1, 1), peaked about 0, from one text (a place and a day or hour):
    each the sum of two bytes of three chained CRCs."""
    a = zlib.crc32(text.encode())
    bits = a | zlib.crc32(b"+", a) << 32 | zlib.crc32(b"-", a) << 64
    return ((bits & 255) + (bits >> 8 & 255)) / 256 - 1, ((bits >> 16 & 255) + (bits >> 24 & 255)) / 256 - 1, \
        ((bits >> 32 & 255) + (bits >> 40 & 255)) / 256 - 1, ((bits >> 48 & 255) + (bits >> 56 & 255)) / 256 - 1, \
        ((bits >> 64 & 255) + (bits >> 72 & 255)) / 256 - 1, ((bits >> 80 & 255) + (bits >> 88 & 255)) / 256 - 1


@functools.lru_cache(maxsize=4096)
def _place_climate(name: str, country: str, population: int, latitude: float
                   ) -> tuple[str, float, float, bool, float, bool, float]:
    """What a place's air is drawn from: its key, country level times city size, the level,
    desert dust, the hemisphere's sign, the tropics, and how much winter smoke it gets."""
    typical, dusty = typical_pm25(country)
    size = min(1.3, max(0.7, 0.75 + 0.1 * math.log10(max(population, 10_000) / 100_000)))
    tropics = abs(latitude) < 15
    smoke = 0.1 if tropics else 0.55 if typical >= 40 else 0.3  # winter stoves and inversions
    return f"{name}|{country}", typical * size, typical, dusty, -1.0 if latitude < 0 else 1.0, tropics, smoke


def draw_air(session_seed: int, place: PlaceFact, when: dt.datetime, daily: bool, station: int | None = None) -> Air:
    """The air at ``place`` at ``when`` (a day's mean when ``daily``), in µg/m³ per pollutant."""
    key, level, typical, dusty, hemisphere, tropics, smoke = _place_climate(
        place.name, place.country_code, place.population, place.latitude)
    day = when.toordinal()
    winter = math.cos(_TAU * (day - _MID_JANUARY) / 365.2425) * hemisphere
    d_pm, d_no2, d_o3, d_coarse, d_so2, d_co = _swings(f"{session_seed}|{key}|{day}")
    pm25 = level * (1 + smoke * winter) * math.exp(0.45 * d_pm)
    size = level / typical if typical else 1.0
    no2 = (8 + 0.3 * typical) * size * (1 + (0 if tropics else 0.2 * winter)) * math.exp(0.3 * d_no2)
    o3 = (55 - (10 if tropics else 25) * winter) * math.exp(0.25 * d_o3)
    if not daily:
        solar = (when.hour + when.minute / 60 + place.longitude / 15) % 24
        rush = math.cos(_TAU * (solar - 8) / 12)  # peaks at 08:00 and 20:00
        pm25 *= (1 + 0.12 * rush) * math.exp(0.1 * _swings(f"{session_seed}|{key}|{day}|{when.hour}")[0])
        no2 *= 1 + 0.3 * rush
        o3 *= 1 + 0.45 * math.cos(_TAU * (solar - 15) / 24)  # afternoon sun
    if station is not None:
        s_pm, s_no2 = _swings(f"{session_seed}|{key}|station {station}")[:2]
        pm25 *= math.exp(0.18 * s_pm)
        no2 *= math.exp(0.2 * s_no2)
    o3 *= max(0.35, 1 - no2 / 160)  # fresh NO2 eats ozone in a polluted street
    return {"pm25": pm25, "pm10": pm25 * ((2.3 if dusty else 1.6) + 0.3 * d_coarse), "o3": o3, "no2": no2,
            "so2": (2 + 0.12 * typical) * math.exp(0.5 * d_so2), "co": (250 + 12 * pm25) * math.exp(0.2 * d_co)}


def _reading_hour(gen: Generation) -> dt.datetime:
    """When a current reading was taken: the last full hour at or before the session's now."""
    return gen.now.replace(minute=0, second=0, microsecond=0)


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
        put_path(record, field.path, index if field.integer else float(index))


_STAT_SHARES = {"min": 0.55, "max": 1.5}


def _write_uv(record: dict[str, Any], measure: MeasureSpec, gen: Generation, day: dt.date) -> None:
    """A day's UV index: none at night, its clear-sky peak at solar noon, about half that on average."""
    noon = dt.datetime.combine(day, dt.time(12)) - dt.timedelta(hours=gen.scope.point[1] / 15)
    peak = uv_at(gen, noon)
    for field in measure.stats:
        value = {"min": 0.0, "max": peak}.get(field.path[-1].lower(), peak * 0.45)
        put_path(record, field.path, int(round(value)) if field.integer else round(value, 1))


def _stamp(record: dict[str, Any], stamps: tuple[Path, ...], when: dt.datetime) -> None:
    for path in stamps:
        value = read_path(record, path)
        if isinstance(value, str) and len(value) == 20 and value[10] == "T" and value[-1] == "Z":
            put_path(record, path, when.strftime("%Y-%m-%dT%H:%M:%SZ"))  # as the engine writes one
        elif timeline.moment(value, path[-1]) is not None:
            put_path(record, path, timeline.render_like(value, when, path[-1]))


def air_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    layout = air_layout(name, entity, props)
    if layout is None:
        return None
    plan = AirWritePlan.of(layout)
    series, stamps, measure = layout.series, layout.stamps, layout.measure
    daily_series = series is not None and timeline.cadence(name, entity, series) >= _DAY

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        scope = gen.scope
        if series is not None and index is not None and scope.parent is not None:
            # An hour or day of a series (as ``Generation._dated`` steps it), at the place of
            # the record that holds the series.
            when = dt.datetime.combine(gen._anchor_date, _NOON) + _DAY * index if daily_series \
                else gen.series_moment(index, name, series)[0]
            air = draw_air(gen.session_seed, scope.parent.place, when, daily_series)
        else:
            when = _reading_hour(gen)
            _stamp(record, stamps, when)
            air = draw_air(gen.session_seed, scope.place, when, False, index)
        air = plan.fit(air)
        plan.write(record, air)
        if measure is not None:
            _write_measure(record, measure, air, gen, when.date())

    return step

"""What each field of an air-quality record says, read once from the record's schema.

``air_layout(name, props)`` looks at one object schema and tells which fields hold an index
and on which scale (``aqi``/``us_aqi``/``aqius`` the US EPA's, ``european_aqi`` the European
one, ``aqicn`` China's), which hold a pollutant's concentration and in which unit (named in
the field, its description or a sibling ``units`` field; µg/m³ otherwise), which are
sub-indices (AQICN's ``iaqi``, Open-Meteo's ``us_aqi_pm2_5``), which name the dominant
pollutant or the category, and which stamp the reading's time. It answers None for a record
that says nothing about the air. The value engine (``air_quality``) fills records by it and
the audit (``specs/air_checks``) reads them back by it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators import timeline
from env_server.simulators.air_scales import POLLUTANTS, scales
from env_server.simulators.naming import snake

Path = tuple[str, ...]  # a field, or a field of a nested object
_LEADING = ("pm25", "pm10", "o3", "no2")

_POLLUTANT_NAMES = {
    **dict.fromkeys(("pm25", "pm2_5", "pm2.5", "pm2p5", "pm_25", "pm_2_5", "p2", "pm_2.5"), "pm25"),
    **dict.fromkeys(("pm10", "pm_10", "p1"), "pm10"),
    **dict.fromkeys(("o3", "ozone"), "o3"),
    **dict.fromkeys(("no2", "n2", "nitrogen_dioxide"), "no2"),
    **dict.fromkeys(("so2", "s2", "sulphur_dioxide", "sulfur_dioxide"), "so2"),
    **dict.fromkeys(("co", "carbon_monoxide"), "co"),
}
_CODES = frozenset({"p1", "p2", "n2", "s2"})
_UNIT_SUFFIX = re.compile(r"^(?P<base>.+?)_(?P<unit>ugm3|ug_m3|ug|mgm3|mg_m3|ppb|ppm|concentration|conc|value)$")
_UNIT_WORDS = {"ugm3": "ugm3", "ug_m3": "ugm3", "ug": "ugm3", "mgm3": "mgm3", "mg_m3": "mgm3", "ppb": "ppb", "ppm": "ppm"}
_INDEX_NAMES = {
    **dict.fromkeys(("aqi", "us_aqi", "aqi_us", "aqius", "usaqi", "overall_aqi", "aqi_value", "air_quality_index",
                     "us_epa_aqi"), "us"),
    **dict.fromkeys(("european_aqi", "eaqi", "eu_aqi", "aqi_eu", "european_air_quality_index"), "eu"),
    **dict.fromkeys(("aqicn", "aqi_cn", "cn_aqi", "china_aqi", "chinese_aqi", "aqi_china"), "cn"),
}
_SUB_INDEX = re.compile(r"^(?:(?P<pre>us_aqi|european_aqi|aqi)_(?P<p1>.+)|(?P<p2>.+)_aqi)$")
_DOMINANT_NAMES = frozenset({"dominentpol", "dominantpol", "dominant_pollutant", "dominant", "main_pollutant",
                             "mainpollutant", "mainus", "maincn", "primary_pollutant", "prominent_pollutant",
                             "dominant_pol"})
_CATEGORY_NAMES = frozenset({"category", "aqi_category", "level", "aqi_level", "quality", "category_name",
                             "health_category", "aqi_description", "air_quality"})
_SUB_GROUPS = frozenset({"iaqi", "sub_indices", "subindices", "sub_index", "individual_aqi", "pollutant_aqi"})
_CONC_GROUPS = frozenset({"components", "concentrations", "pollutants", "pollutant_concentrations", "measurements",
                          "pollution"})
_PARAMETER_NAMES = frozenset({"parameter", "pollutant", "parameter_name", "pollutant_name"})
_VALUE_NAMES = frozenset({"value", "concentration", "last_value", "latest_value"})
_UNITS_NAMES = frozenset({"units", "unit"})
_STAT_NAMES = frozenset({"avg", "min", "max", "mean", "average"})
# Fields that stamp when a current reading was taken.
_STAMP_NAMES = frozenset({"s", "ts", "time", "datetime", "timestamp", "updated_at", "last_updated", "updated",
                          "observed_at", "observation_time", "measured_at", "date_time", "dt", "last_update",
                          "as_of", "recorded_at", "timestamp_utc", "datetime_utc", "time_utc", "utc", "date_utc",
                          "last_updated_at"})
VALUE_ALIASES: dict[str, tuple[str, ...]] = {
    "pm25": ("pm25", "pm2.5", "pm2_5", "p2", "pm2p5"), "pm10": ("pm10", "p1"), "o3": ("o3", "ozone"),
    "no2": ("no2", "n2"), "so2": ("so2", "s2"), "co": ("co",),
}


def pollutant_of(value: Any) -> str | None:
    """The pollutant a name or a code stands for ("PM2.5", "p2", "OZONE" …), or None."""
    if not isinstance(value, str):
        return None
    return _POLLUTANT_NAMES.get(snake(value.strip()).replace(" ", "_"))


def unit_of(text: Any) -> str | None:
    """The unit a ``units`` value or a description names ("µg/m³", "ppb" …), or None."""
    if not isinstance(text, str):
        return None
    low = text.lower().replace("μ", "µ")
    if "ppb" in low:
        return "ppb"
    if "ppm" in low:
        return "ppm"
    if "mg/m" in low:
        return "mgm3"
    if "µg" in low or "ug/m" in low or "microgram" in low:
        return "ugm3"
    return None


@dataclass(frozen=True)
class AirFieldSpec:
    """One number of the record: a concentration (``unit`` set) or an index (``scale`` set)."""

    path: Path
    pollutant: str | None  # None: the record's overall index
    unit: str = ""
    scale: str = ""
    integer: bool = False
    maximum: float | None = None


@dataclass(frozen=True)
class LabelFieldSpec:
    """A text field that follows the index: the dominant pollutant, or the category."""

    path: Path
    scale: str
    choices: tuple[str, ...] | None  # the schema's enum, if any


@dataclass(frozen=True)
class MeasureSpec:
    """A record of one pollutant: which it is, its value and unit, or its daily index stats."""

    parameter: str
    value: str | None
    units: str | None
    units_choices: tuple[str, ...] | None
    stats: tuple[AirFieldSpec, ...]


@dataclass(frozen=True)
class AirLayoutSpec:
    """The air fields of one object schema."""

    concentrations: tuple[AirFieldSpec, ...]
    indices: tuple[AirFieldSpec, ...]  # overall and per-pollutant, by scale
    dominants: tuple[LabelFieldSpec, ...]
    categories: tuple[LabelFieldSpec, ...]
    measure: MeasureSpec | None
    series: str | None  # the time axis, for an item of a series
    stamps: tuple[Path, ...]

    @property
    def shown(self) -> frozenset[str]:
        """The pollutants the record shows (a concentration or a sub-index); its index is theirs."""
        return frozenset(f.pollutant for f in (*self.concentrations, *self.indices) if f.pollutant)

    @property
    def scope(self) -> tuple[str, ...]:
        """The pollutants an overall index is the maximum of: those the record shows, else the four
        that ever give it (SO2 and CO stay far below the others in any air ``draw_air`` makes)."""
        shown = self.shown
        return tuple(p for p in POLLUTANTS if p in shown) if shown else _LEADING


def _number(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") in ("number", "integer")


def _maximum(schema: dict[str, Any]) -> float | None:
    top = schema.get("maximum", schema.get("exclusiveMaximum"))
    return float(top) if isinstance(top, (int, float)) else None


def _conc_unit(pollutant: str, name: str, schema: dict[str, Any]) -> str:
    """A concentration's unit: its name's suffix, its description, else µg/m³ (CO with a small
    maximum is in mg/m³)."""
    match = _UNIT_SUFFIX.match(snake(name))
    if match is not None and match["unit"] in _UNIT_WORDS:
        return _UNIT_WORDS[match["unit"]]
    described = unit_of(schema.get("description"))
    if described is not None:
        return described
    top = _maximum(schema)
    return "mgm3" if pollutant == "co" and top is not None and top <= 100 else "ugm3"


def _conc_pollutant(name: str) -> str | None:
    """The pollutant a field named like one holds ("PM25", "pm2_5", "o3_ppb"); IQAir's codes
    ("p2", "n2") name pollutants as values, not as fields."""
    low = snake(name)
    if low in _CODES:
        return None
    found = _POLLUTANT_NAMES.get(low)
    if found is None and (match := _UNIT_SUFFIX.match(low)) is not None:
        found = _POLLUTANT_NAMES.get(match["base"])
    return found


def _field(path: Path, schema: dict[str, Any], pollutant: str | None, **kw: Any) -> AirFieldSpec:
    return AirFieldSpec(path, pollutant, integer=schema.get("type") == "integer", maximum=_maximum(schema), **kw)


def _index_field(key: str, schema: Any) -> AirFieldSpec | None:
    """An overall index (``aqi``) or a pollutant's sub-index (``us_aqi_pm2_5``, ``pm25_aqi``)."""
    if not _number(schema):
        return None
    low = snake(key)
    if low in _INDEX_NAMES:
        return _field((key,), schema, None, scale=_INDEX_NAMES[low])
    match = _SUB_INDEX.match(low)
    if match is None:
        return None
    pollutant = _POLLUTANT_NAMES.get(match["p1"] or match["p2"] or "")
    if pollutant is None:
        return None
    return _field((key,), schema, pollutant, scale="eu" if match["pre"] == "european_aqi" else "us")


def _group_fields(key: str, schema: Any) -> list[AirFieldSpec]:
    """The numbers of a nested group: AQICN's ``iaqi`` sub-indices, or a ``components`` object of concentrations."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return []
    low, props = snake(key), schema.get("properties") or {}
    if low not in _SUB_GROUPS and low not in _CONC_GROUPS:
        return []
    found = []
    for sub, sub_schema in props.items():
        pollutant = _conc_pollutant(sub)
        if pollutant is None or not _number(sub_schema):
            continue
        if low in _SUB_GROUPS:
            found.append(_field((key, sub), sub_schema, pollutant, scale="us"))
        else:
            found.append(_field((key, sub), sub_schema, pollutant, unit=_conc_unit(pollutant, sub, sub_schema)))
    return found


def _enum(schema: Any) -> tuple[str, ...] | None:
    values = schema.get("enum") if isinstance(schema, dict) else None
    return tuple(str(v) for v in values) if isinstance(values, list) and values else None


def _category_scale(choices: tuple[str, ...] | None, indices: list[AirFieldSpec]) -> str:
    """The scale whose labels a category's enum holds; else the record's first overall index's."""
    if choices:
        for name, scale in scales().items():
            if {c.lower() for c in choices} <= scale.labels:
                return name
    return next((f.scale for f in indices if f.pollutant is None), "us")


def _measure(props: Mapping[str, Any]) -> MeasureSpec | None:
    """A one-pollutant record: OpenAQ's ``parameter``/``value``/``units``, AQICN's daily ``pollutant`` stats."""
    parameter = next((k for k in props if snake(k) in _PARAMETER_NAMES), None)
    if parameter is None:
        return None
    choices = _enum(props[parameter])
    if not any(pollutant_of(c) or c in ("bc", "uvi") for c in choices or ()):
        return None  # a "parameter" that names no pollutant is some other measure
    value = next((k for k in props if snake(k) in _VALUE_NAMES and _number(props[k])), None)
    units = next((k for k in props if snake(k) in _UNITS_NAMES), None)
    stats = tuple(_field((k,), s, None, scale="us") for k, s in props.items() if snake(k) in _STAT_NAMES and _number(s))
    if value is None and units is None and not stats:
        return None
    return MeasureSpec(parameter, value, units, _enum(props[units]) if units else None, stats)


def _stamps(props: Mapping[str, Any]) -> tuple[Path, ...]:
    """The fields (and fields of nested plain objects, AQICN's ``time.s``) that stamp a current
    reading (an item of a series keeps its own moment)."""
    found: list[Path] = []
    for key, schema in props.items():
        if not isinstance(schema, dict):
            continue
        low = snake(key)
        if low in _STAMP_NAMES and schema.get("type") in ("string", "integer", None):
            found.append((key,))
        elif schema.get("type") == "object" and low in ("time", "timestamp", "updated", "observed"):
            found += [(key, sub) for sub, s in (schema.get("properties") or {}).items()
                      if snake(sub) in _STAMP_NAMES | {"iso", "v"} and isinstance(s, dict)
                      and s.get("type") in ("string", "integer")]
    return tuple(found)


def _numbers(props: Mapping[str, Any]) -> tuple[list[AirFieldSpec], list[AirFieldSpec]]:
    """A record's indices (overall and per pollutant) and its concentrations, nested groups included."""
    indices: list[AirFieldSpec] = []
    concentrations: list[AirFieldSpec] = []
    for key, schema in props.items():
        field = _index_field(key, schema)
        pollutant = _conc_pollutant(key) if field is None else None
        if field is not None:
            indices.append(field)
        elif pollutant is not None and _number(schema):
            concentrations.append(_field((key,), schema, pollutant, unit=_conc_unit(pollutant, key, schema)))
        else:
            for group in _group_fields(key, schema):
                (indices if group.scale else concentrations).append(group)
    return indices, concentrations


def _labels(props: Mapping[str, Any], names: frozenset[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """The text fields among ``names``, with their enums."""
    return [(k, _enum(s)) for k, s in props.items()
            if snake(k) in names and isinstance(s, dict) and s.get("type", "string") == "string"]


def _is_group(name: str, props: Mapping[str, Any]) -> bool:
    """A nested group (``iaqi``, ``components``) that the record holding it reads and fills."""
    low = snake(name)
    return low in _SUB_GROUPS or low in _CONC_GROUPS and not any(snake(k) in _INDEX_NAMES for k in props)


def air_layout(name: str, entity: str, props: Mapping[str, Any]) -> AirLayoutSpec | None:
    """The air fields of an object schema named ``name``, or None when it says nothing of the air."""
    if _is_group(name, props):
        return None
    indices, concentrations = _numbers(props)
    measure = _measure(props)
    overall = [f for f in indices if f.pollutant is None]
    if not overall and len(concentrations) + len(indices) < 2 and measure is None:
        return None  # one stray "co" or "o3" is no air record
    dominants = tuple(LabelFieldSpec((k,), "cn" if snake(k).endswith("cn") else _category_scale(None, indices), enum)
                      for k, enum in _labels(props, _DOMINANT_NAMES))
    categories = tuple(LabelFieldSpec((k,), _category_scale(enum, indices), enum)
                       for k, enum in _labels(props, _CATEGORY_NAMES)) if overall else ()
    # Items of a forecast or a history lie on its time axis; a list of stations or sensors
    # reports each one's current reading, whatever time field it has.
    series = next((k for k in props if timeline.is_series_axis(k, name, entity)), None) \
        if timeline.is_series_array(name, entity) else None
    return AirLayoutSpec(tuple(concentrations), tuple(indices), dominants, categories, measure, series,
                         _stamps(props))

"""How one air becomes a record's fields, planned once per object schema.

``AirWritePlan.of(layout)`` turns an ``air_fields.AirLayoutSpec`` into everything a call needs
already looked up: each concentration's unit factor, each scale's table per pollutant and the
factor from the field's unit to the table's, each enum's spelling of a pollutant or category,
and the caps the schema's bounds put on the air. ``write`` then fills a record from an air (µg/m³
per pollutant): concentrations in their units, sub-indices, each scale's index (the largest
sub-index of the pollutants the record shows, read from the values it shows, as a reader
would), the dominant pollutant and the category.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators.air_fields import VALUE_ALIASES, AirFieldSpec, AirLayoutSpec, LabelFieldSpec, Path
from env_server.simulators.air_scales import POLLUTANTS, AirScaleSpec, BandTableSpec, convert, scales

Air = dict[str, float]  # pollutant -> µg/m³
# A sub-index to compute: pollutant, the field holding the value (None: the air), the factor from
# that value's unit to the table's unit, and the table.
_Reading = tuple[str, Path | None, float, BandTableSpec]


def read_path(record: Mapping[str, Any], path: Path) -> Any:
    if len(path) == 1:
        return record.get(path[0])
    value: Any = record
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def put_path(record: dict[str, Any], path: Path, value: Any) -> None:
    """Set a field the record has (a nested object's, for a longer path); leave out what it lacks."""
    holder: Any = record if len(path) == 1 else read_path(record, path[:-1])
    if isinstance(holder, dict) and path[-1] in holder:
        holder[path[-1]] = value


def choose(choices: tuple[str, ...] | None, wanted: tuple[str, ...]) -> str | None:
    """The first of ``wanted`` an enum holds (matched without case), or the first wanted with no enum."""
    if choices is None:
        return wanted[0]
    by_low = {c.lower(): c for c in choices}
    return next((by_low[w.lower()] for w in wanted if w.lower() in by_low), None)


_DIGITS = {"ugm3": 1, "ppb": 1, "mgm3": 2, "ppm": 3}  # how finely each unit is written


def shown_value(value_ugm3: float, pollutant: str, unit: str, integer: bool) -> int | float:
    """A concentration as a record writes it: in its unit, to the digits that unit is read to."""
    value = convert(value_ugm3, pollutant, "ugm3", unit)
    return int(round(value)) if integer else round(value, _DIGITS[unit])


@dataclass(frozen=True)
class _ScalePlanSpec:
    """What one scale decides in a record: its index fields, dominant pollutant and category."""

    spec: AirScaleSpec
    readings: tuple[_Reading, ...]  # the record's shown values first, then the air for the rest
    overall: tuple[AirFieldSpec, ...]
    dominants: tuple[tuple[Path, tuple[tuple[str, str], ...]], ...]  # (pollutant, its spelling) in order
    categories: tuple[tuple[Path, Mapping[str, str]], ...]  # label -> the enum's spelling

    def sub_indices(self, record: Mapping[str, Any], air: Air) -> dict[str, int]:
        found: dict[str, int] = {}
        top = self.spec.top
        for pollutant, path, factor, table in self.readings:
            if pollutant in found:
                continue
            if path is None:  # the air itself, for a pollutant the record does not show
                found[pollutant] = table.index(air[pollutant] * factor, top)
                continue
            value = record.get(path[0]) if len(path) == 1 else read_path(record, path)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found[pollutant] = table.index(value * factor, top) if factor else int(value)
        return found

    def write(self, record: dict[str, Any], air: Air) -> None:
        subs = self.sub_indices(record, air)
        if not subs:
            return
        top = max(subs.values())
        for field in self.overall:
            if len(field.path) == 1:
                record[field.path[0]] = top if field.integer else float(top)
            else:
                put_path(record, field.path, top if field.integer else float(top))
        for path, spellings in self.dominants:
            text = next((s for p, s in spellings if subs.get(p) == top), None)
            if text is not None:
                put_path(record, path, text)
        label = self.spec.category(top)
        for path, spelling in self.categories:
            if label in spelling:
                put_path(record, path, spelling[label])


def _readings(layout: AirLayoutSpec, spec: AirScaleSpec) -> tuple[_Reading, ...]:
    found: list[_Reading] = []
    for field in layout.concentrations:
        table = spec.tables.get(field.pollutant or "")
        if field.pollutant and table is not None:
            found.append((field.pollutant, field.path, convert(1.0, field.pollutant, field.unit, table.unit), table))
    for field in layout.indices:  # the record's own sub-index: read as it is (factor 0)
        table = spec.tables.get(field.pollutant or "")
        if field.pollutant and field.scale == spec.name and table is not None:
            found.append((field.pollutant, field.path, 0.0, table))
    for pollutant in layout.scope:
        table = spec.tables.get(pollutant)
        if table is not None:
            found.append((pollutant, None, convert(1.0, pollutant, "ugm3", table.unit), table))
    return tuple(found)


def _scale_plan(layout: AirLayoutSpec, name: str) -> _ScalePlanSpec:
    spec = scales()[name]

    def spellings(label: LabelFieldSpec) -> tuple[tuple[str, str], ...]:
        return tuple((p, text) for p in POLLUTANTS if (text := choose(label.choices, VALUE_ALIASES[p])) is not None)

    def labels(label: LabelFieldSpec) -> dict[str, str]:
        return {own: text for _, own in spec.categories if (text := choose(label.choices, (own,))) is not None}

    return _ScalePlanSpec(
        spec, _readings(layout, spec), tuple(f for f in layout.indices if f.pollutant is None and f.scale == name),
        tuple((d.path, spellings(d)) for d in layout.dominants if d.scale == name),
        tuple((c.path, labels(c)) for c in layout.categories if c.scale == name))


def _limits(layout: AirLayoutSpec) -> list[tuple[str, float, tuple[str, ...]]]:
    """The indices a schema bounds: (scale, highest index, the pollutants it bounds)."""
    limits = [(f.scale, f.maximum, (f.pollutant,) if f.pollutant else layout.scope)
              for f in layout.indices if f.maximum is not None]
    # A one-pollutant record's stats bound whichever pollutant it turns out to be.
    limits += [(f.scale, f.maximum, POLLUTANTS) for f in (layout.measure.stats if layout.measure else ())
               if f.maximum is not None]
    for label in layout.categories:  # a category enum that stops at "Unhealthy" bounds the index at 200
        tops = [scales()[label.scale].band_top(c) for c in label.choices or ()]
        if tops and None not in tops:
            limits.append((label.scale, float(max(t for t in tops if t is not None)), layout.scope))
    return [(scale, float(top), pollutants) for scale, top, pollutants in limits if top is not None]


def _caps(layout: AirLayoutSpec) -> dict[str, float]:
    """The most of each pollutant (µg/m³) the schema's bounds leave room for."""
    caps = dict.fromkeys(POLLUTANTS, math.inf)
    for field in layout.concentrations:
        if field.pollutant and field.maximum is not None:
            caps[field.pollutant] = min(caps[field.pollutant],
                                        convert(field.maximum, field.pollutant, field.unit, "ugm3"))
    for scale, top, pollutants in _limits(layout):
        for pollutant in pollutants:
            caps[pollutant] = min(caps[pollutant], scales()[scale].ceiling_ugm3(pollutant, top))
    return {p: c for p, c in caps.items() if c < math.inf}


@dataclass(frozen=True)
class AirWritePlan:
    """A record's air fields, each with what writing it needs, decided once per schema."""

    # path, pollutant, factor from µg/m³ to the field's unit, digits (None: an integer), maximum
    concentrations: tuple[tuple[Path, str, float, int | None, float | None], ...]
    sub_index_fields: tuple[tuple[Path, str, BandTableSpec, float, int, bool], ...]
    scales: tuple[_ScalePlanSpec, ...]
    caps: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, layout: AirLayoutSpec) -> AirWritePlan:
        concentrations = tuple((f.path, f.pollutant, convert(1.0, f.pollutant, "ugm3", f.unit),
                                None if f.integer else _DIGITS[f.unit], f.maximum)
                               for f in layout.concentrations if f.pollutant)
        subs = []
        for field in layout.indices:
            spec = scales()[field.scale]
            table = spec.tables.get(field.pollutant or "")
            if field.pollutant and table is not None:
                subs.append((field.path, field.pollutant, table, convert(1.0, field.pollutant, "ugm3", table.unit),
                             spec.top, field.integer))
        named = sorted({f.scale for f in layout.indices if f.pollutant is None}
                       | {f.scale for f in (*layout.dominants, *layout.categories)})
        return cls(concentrations, tuple(subs), tuple(_scale_plan(layout, n) for n in named),
                   tuple(_caps(layout).items()))

    def fit(self, air: Air) -> Air:
        """``air`` scaled down as a whole until every pollutant fits its cap."""
        factor = 1.0
        for pollutant, cap in self.caps:
            if air[pollutant] * factor > cap:
                factor = cap / air[pollutant]
        return {p: v * factor * 0.97 for p, v in air.items()} if factor < 1.0 else air

    def write(self, record: dict[str, Any], air: Air) -> None:
        for path, pollutant, factor, digits, top in self.concentrations:
            value: int | float = round(air[pollutant] * factor, digits) if digits is not None else int(
                round(air[pollutant] * factor))
            put_path(record, path, value if top is None or value <= top else type(value)(top))
        for path, pollutant, table, factor, top_index, integer in self.sub_index_fields:
            index = table.index(air[pollutant] * factor, top_index)
            put_path(record, path, index if integer else float(index))
        for plan in self.scales:
            plan.write(record, air)

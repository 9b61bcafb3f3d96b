"""The audit's air checks: an air-quality record's numbers must agree as its provider's scale says.

``air_hits(spec, result)`` walks a result beside its output schema and, for every record that
says something of the air (``simulators.air_fields.air_layout`` reads the record's schema the
way the generator does), recomputes from what the record itself shows:

* its index on each scale (US EPA, European, Chinese) is the largest sub-index of the
  concentrations and sub-indices it shows;
* its dominant pollutant is one that gives that index;
* its category is the band of its index on the category's scale;

and, anywhere in the result, reports an array of two numbers named like a point (``geo``,
``coordinates``, ``latlng``, a polygon's vertex) that lies off the globe.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.air_fields import AirLayoutSpec, air_layout, pollutant_of
from env_server.simulators.air_scales import scales
from env_server.simulators.air_writes import read_path
from env_server.simulators.geo_naming import point_order
from env_server.simulators.plans import singular
from env_server.specs.audit_checks import read_number

Hit = tuple[str, str]
# Rounding a concentration to the digits a record shows moves a sub-index by at most one.
_SLACK = 1


def _shown_sub_indices(record: Mapping[str, Any], layout: AirLayoutSpec, scale: str) -> dict[str, int]:
    """The sub-indices on ``scale`` of what the record shows: its concentrations, its own sub-index fields."""
    spec = scales()[scale]
    found: dict[str, int] = {}
    for field in layout.concentrations:
        value = read_number(read_path(record, field.path))
        if field.pollutant and value is not None and (index := spec.sub_index(field.pollutant, value, field.unit)) \
                is not None:
            found[field.pollutant] = max(found.get(field.pollutant, 0), index)
    for field in layout.indices:
        value = read_number(read_path(record, field.path))
        if field.pollutant and field.scale == scale and value is not None:
            found[field.pollutant] = max(found.get(field.pollutant, 0), int(value))
    return found


def _index_hits(record: Mapping[str, Any], layout: AirLayoutSpec, path: str) -> Iterator[Hit]:
    for field in layout.indices:
        have = read_number(read_path(record, field.path))
        subs = _shown_sub_indices(record, layout, field.scale)
        if field.pollutant is not None or have is None or not subs:
            continue
        want = max(subs.values())
        if abs(have - want) > _SLACK:
            top = max(subs, key=lambda p: subs[p])
            yield (f"{path}.{'.'.join(field.path)}",
                   f"{field.scale} index {have:g} but its own readings give {want} ({top} {subs[top]})")


def _dominant_hits(record: Mapping[str, Any], layout: AirLayoutSpec, path: str) -> Iterator[Hit]:
    for label in layout.dominants:
        value = read_path(record, label.path)
        subs = _shown_sub_indices(record, layout, label.scale)
        pollutant = pollutant_of(value)
        if not subs or pollutant is None or pollutant not in subs:
            continue
        top = max(subs.values())
        if subs[pollutant] < top - _SLACK:
            leader = max(subs, key=lambda p: subs[p])
            yield (f"{path}.{'.'.join(label.path)}",
                   f"dominant {value!r} gives {subs[pollutant]}, but {leader} gives the index ({top})")


def _category_hits(record: Mapping[str, Any], layout: AirLayoutSpec, path: str) -> Iterator[Hit]:
    for label in layout.categories:
        value = read_path(record, label.path)
        if not isinstance(value, str):
            continue
        spec = scales()[label.scale]
        index = next((read_number(read_path(record, f.path)) for f in layout.indices
                      if f.pollutant is None and f.scale == label.scale), None)
        if index is None:
            continue
        want = spec.category(index)
        if value.lower() != want.lower():
            yield f"{path}.{'.'.join(label.path)}", f"category {value!r} but a {label.scale} index of {index:g} is {want!r}"


def _point_hits(value: list[Any], name: str, path: str) -> Iterator[Hit]:
    order = point_order(name)
    if order is None or len(value) != 2 or not all(read_number(v) is not None for v in value):
        return
    first, second = (float(v) for v in value)
    lat, lon = (first, second) if order == "latlon" else (second, first)
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        axes = "[lat, lon]" if order == "latlon" else "[lon, lat]"
        yield path, f"{name} {value} is off the globe as {axes}"


def _walk(value: Any, schema: Any, name: str, entity: str, path: str) -> Iterator[Hit]:
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        layout = air_layout(name, entity, props) if props else None
        if layout is not None:
            yield from _index_hits(value, layout, path)
            yield from _dominant_hits(value, layout, path)
            yield from _category_hits(value, layout, path)
        for key, sub in value.items():
            yield from _walk(sub, props.get(key), key, entity, f"{path}.{key}")
    elif isinstance(value, list):
        yield from _point_hits(value, name, path)
        items = schema.get("items")
        for i, sub in enumerate(value):
            yield from _walk(sub, items, singular(name), entity, f"{path}[{i}]")


def air_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    """Air records whose index, dominant pollutant or category disagree with their readings;
    point arrays off the globe."""
    return list(_walk(result, spec.output_schema, "", spec.profile.entity or "", "$"))

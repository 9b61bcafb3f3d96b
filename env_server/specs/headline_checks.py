"""The audit's checks for issue 14's headline reads (``headline_hits``):

* a nearby search's rows sit at the searched centre while their distances differ;
* a create shows text for an optional field the caller did not send (a body, a location,
  a time zone: the API's default or nothing, see ``create_defaults``);
* a no-filter list of a closed reference vocabulary (every dog breed) lists a few only;
* a decoded VIN names a model its make did not sell in that year (``car_lineup``);
* a weather report's condition is a rare extreme, or one its temperature rules out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.simulators.create_defaults import defaults_plan
from env_server.simulators.lineup import LINEUP
from env_server.simulators.naming import snake
from env_server.simulators.records import LAT_ARGS, LON_ARGS, arg_number, default_facts
from env_server.simulators.sky import band, plausible
from env_server.simulators.whole_lists import MAX_WHOLE, whole_kinds
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_DISTANCES = ("distance", "distance_km", "dist")
_CONDITIONS = ("condition", "conditions", "weather", "summary", "text", "description")
_TEMPS = ("temp_c", "temperature_c")
# A report's temperature is its condition's, give or take this much (°C).
_TEMP_SLACK = 2.0


def headline_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> list[Hit]:
    """What a person who knows the API would not believe of this result (see the module)."""
    return list(_headline_hits(spec, args, result))


def _headline_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    op = spec.profile.operation
    if op is Operation.CREATE and isinstance(result, dict):
        yield from _create_hits(spec, args, result)
    if op is Operation.LIST and isinstance(result, dict):
        yield from _whole_list_hits(spec, args, result)
    yield from _nearby_hits(args, result)
    yield from _vin_hits(args, result)
    yield from _sky_hits(result)


def _create_hits(spec: ToolSpec, args: Mapping[str, Any], result: dict[str, Any]) -> Iterator[Hit]:
    idf = spec.profile.id_field or "id"
    for name, param, shown, _ in defaults_plan(spec.input_schema, spec.output_schema, idf, {}):
        if param not in args and name in result and result[name] != shown:
            yield f"$.{name}", f"{name}={result[name]!r} though the call sent no {param} (expected {shown!r})"


def _whole_list_hits(spec: ToolSpec, args: Mapping[str, Any], result: dict[str, Any]) -> Iterator[Hit]:
    coll = spec.profile.collection or ""
    rows = result.get(coll)
    schema = (spec.output_schema.get("properties") or {}).get(coll) or {}
    items = schema.get("items") if isinstance(schema, dict) else None
    if args or not isinstance(rows, list) or not isinstance(items, dict):
        return
    vocab = default_facts().vocab
    for kind in whole_kinds(items.get("properties") or {}, spec.profile.hints):
        if kind in vocab and vocab.get(kind).records and len(vocab.get(kind).records) <= MAX_WHOLE:
            want = min(len(vocab.get(kind).records), int(schema.get("maxItems", 10_000)))
            if len(rows) < want:
                yield f"$.{coll}", f"lists {len(rows)} of the {want} {kind} entries though the call asked for all"
            return


def _nearby_hits(args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    snaked = {snake(k): v for k, v in args.items()}
    lat, lon = arg_number(snaked, LAT_ARGS), arg_number(snaked, LON_ARGS)
    if lat is None or lon is None:
        return
    for path, record in walk_records(result):
        if not path.endswith("]"):
            continue  # a list's rows (a reverse geocode's own record is judged by geo_checks)
        dist = next((record[k] for k in _DISTANCES if isinstance(record.get(k), (int, float))), None)
        r_lat = next((record[k] for k in ("lat", "latitude") if isinstance(record.get(k), (int, float))), None)
        r_lon = next((record[k] for k in ("lng", "lon", "longitude") if isinstance(record.get(k), (int, float))), None)
        if dist is not None and dist > 0.5 and r_lat == lat and r_lon == lon:
            yield path, f"the row lies at the searched centre ({lat}, {lon}) yet is {dist} away"


def _vin_hits(args: Mapping[str, Any], result: Any) -> Iterator[Hit]:
    vin = args.get("vin")
    if not isinstance(vin, str) or not isinstance(result, dict):
        return
    decoded = default_facts().reference.decode_vin(vin)
    make, model, year = result.get("make"), result.get("model"), result.get("model_year")
    vocab = default_facts().vocab
    if not decoded or not isinstance(make, str) or not isinstance(model, str) or LINEUP not in vocab:
        return
    lines = [r for r in vocab.get(LINEUP).records if r["make"].lower() == make.lower()]
    if lines and not any(r["model"] == model and (not isinstance(year, int) or r["first_year"] <= year <= r["last_year"])
                         for r in lines):
        yield "$.model", f"{make} sold no {model!r} in {year}"


def _sky_hits(result: Any) -> Iterator[Hit]:
    conditions = default_facts().vocab.get("weather_condition").values
    known = frozenset(conditions)
    for path, record in walk_records(result):
        temp = next((record[k] for k in _TEMPS if isinstance(record.get(k), (int, float))), None)
        text = _condition_text(record)
        if temp is None or text is None or text not in known:
            continue
        if all(text not in plausible(conditions, band(float(temp) + d)) for d in (-_TEMP_SLACK, 0.0, _TEMP_SLACK)):
            yield path, f"condition {text!r} at {temp} °C"


def _condition_text(record: Mapping[str, Any]) -> str | None:
    for key in _CONDITIONS:
        value = record.get(key)
        if isinstance(value, dict):
            value = value.get("text")
        if isinstance(value, str):
            return value
    return None

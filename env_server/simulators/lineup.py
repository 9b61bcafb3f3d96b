"""A decoded VIN names a real model line: the make's model sold in the VIN's market in
its model year (by its VIN model code where ``car_lineup`` knows it), with that line's
body, fuel and one of the engines it was offered with.

The table is the record vocabulary ``tool_specs/vocab/car_lineup.json`` (facts, coarse).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

LINEUP = "car_lineup"


def vin_lineup(gen: Generation) -> dict[str, Any] | None:
    """The model line the call's VIN stands for (once per record), or None when the call
    sends no decodable VIN or the table has no line of its make."""
    decoded = gen.decoded_vin
    if not decoded or LINEUP not in gen.facts.vocab:
        return None
    line: dict[str, Any] | None = gen.scope.once("lineup", lambda: _pick_line(gen, decoded), inherit=True)
    return line


def _pick_line(gen: Generation, decoded: dict[str, Any]) -> dict[str, Any] | None:
    make = str(decoded.get("make") or "").lower()
    lines = [r for r in gen.facts.vocab.get(LINEUP).records if r["make"].lower() == make]
    if not lines:
        return None
    year = decoded.get("model_year")
    vin = str(gen.args.get("vin") or "").strip().upper()
    in_year = [r for r in lines if not isinstance(year, int) or r["first_year"] <= year <= r["last_year"]]
    coded = [r for r in in_year or lines if any(vin[3:].startswith(code) for code in r["vds"])]
    if coded:
        return coded[0]
    region = str(decoded.get("region") or "")
    sold = [r for r in in_year if region in r["regions"]] or in_year or lines
    return sold[gen.rng.randrange(len(sold))]


def line_vehicle(gen: Generation, line: dict[str, Any]) -> tuple[str, str, int, float]:
    """Body class, vehicle type, cylinders and displacement of a car of ``line``."""
    engines = line["engines"]
    cylinders, litres = engines[gen.rng.randrange(len(engines))]
    return line["body_class"], line["vehicle_type"], int(cylinders), float(litres)

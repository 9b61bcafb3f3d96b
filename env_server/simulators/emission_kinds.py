"""Carbon estimates a person who does carbon accounting can check: factor times activity.

An emission factor is per a unit that fits its activity: kg CO2e per kWh for electricity
and fuel, per km or passenger-km for travel, per tonne-km for freight, per kg for
materials, per USD for spend (``tool_specs/vocab/emission_activity.json``). An estimate is
the factor times the activity amount, in the factor's unit: 500 kWh of a 0.207 kg/kWh grid
is 103.5 kg. A flight is the great-circle distance between its airports (plus 9 % for the
route flown) times passengers times the cabin's factor. Every mass field of a record says
the same amount in its own unit (``carbon_g``, ``carbon_lb``, ``carbon_mt``).

``EMISSION_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference import haversine_km

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

KIND = "emission_activity"
# How far an amount in a unit is, in the unit factors are per.
_TO_KWH = {"kwh": 1.0, "mwh": 1000.0, "gj": 277.778, "wh": 0.001}
_TO_KG = {"g": 0.001, "kg": 1.0, "t": 1000.0, "tonne": 1000.0, "lb": 0.453592, "mt": 1000.0}
_TO_KM = {"m": 0.001, "km": 1.0, "mi": 1.609344, "nmi": 1.852}
# Per passenger-km, radiative forcing included (typical published factors, rounded).
_CABIN = {"economy": 0.148, "premium": 0.237, "premium_economy": 0.237, "business": 0.429, "first": 0.592}
_ROUTE_UPLIFT = 1.09
_FREIGHT = {"truck": 0.107, "road": 0.107, "train": 0.028, "rail": 0.028, "ship": 0.016, "sea": 0.016,
            "plane": 0.602, "air": 0.602}
_CLOUD_KG_PER_KWH = {"eu-north": 0.013, "eu-west-3": 0.056, "eu-west-1": 0.29, "eu-west-2": 0.21, "eu-central": 0.37,
                     "us-east": 0.38, "us-west": 0.24, "ap-south": 0.71, "ap-northeast": 0.46, "europe-north": 0.013,
                     "us-central": 0.45, "asia-east": 0.54}
_TYPICAL = {"Energy": (50, 5000), "Distance": (5, 800), "PassengerOverDistance": (10, 3000),
            "WeightOverDistance": (100, 20000), "Weight": (1, 2000), "Money": (20, 5000)}
_UNIT_TYPE_OF = {"energy": "Energy", "distance": "Distance", "weight": "Weight", "money": "Money"}


def _walk(args: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in args.items():
        if isinstance(value, Mapping):
            yield from _walk(value)
        else:
            yield key.lower(), value


def _flat(gen: Generation) -> dict[str, Any]:
    """The call's arguments, nested objects flattened ("parameters.energy" -> "energy")."""
    flat: dict[str, Any] = gen.scope.top.once("emission_args", lambda: dict(_walk(gen.args)))
    return flat


def _number(flat: Mapping[str, Any], *names: str) -> float | None:
    for name in names:
        value = flat.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
            return float(value)
    return None


def activity(gen: Generation) -> dict[str, Any]:
    """The record's emission factor: the one the call names, else one whose unit fits the
    amount the call gives (an energy amount picks an electricity or fuel factor), else any.
    Items of a search take distinct factors that match its query and filters."""

    def pick() -> dict[str, Any]:
        vocab, flat = gen.facts.vocab, _flat(gen)
        named = flat.get("activity_id")
        hit = vocab.index(KIND).get(named.lower()) if isinstance(named, str) else None
        if hit is not None:
            return hit
        rows: tuple[dict[str, Any], ...] = gen.scope.top.once(
            "emission_fitting", lambda: _fitting(vocab.get(KIND).records, flat))
        start = gen.draw_offset if gen.scope.in_list else gen.rng.randrange(len(rows))
        return rows[(start + gen.scope.index) % len(rows)]

    found: dict[str, Any] = gen.scope.once("emission_activity", pick, inherit=True)
    return found


def _fitting(rows: tuple[dict[str, Any], ...], flat: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    wanted = next((t for name, t in _UNIT_TYPE_OF.items() if _number(flat, name) is not None), None)
    query = flat.get("query") if isinstance(flat.get("query"), str) else ""
    words = [w for w in str(query).lower().replace("-", " ").replace("_", " ").split() if w]
    keep = []
    for row in rows:
        text = " ".join(str(v) for v in row.values()).lower().replace("_", " ").replace("-", " ")
        if wanted and row["unit_type"] != wanted:
            continue
        if words and not all(w in text for w in words):
            continue
        for key in ("category", "region", "source", "unit_type", "sector"):
            want = flat.get(key)
            if isinstance(want, str) and want and want.lower() != str(row[key]).lower():
                break
        else:
            keep.append(row)
    return tuple(keep) or rows


def activity_amount(gen: Generation, row: Mapping[str, Any]) -> float:
    """The call's activity amount in the unit ``row``'s factor is per (a typical amount
    when it gives none: a stored estimate listed without its question)."""
    unit_type = row["unit_type"]
    sent = _sent_amount(_flat(gen), unit_type, str(row["unit"]))
    if sent is not None:
        return sent
    lo, hi = _TYPICAL[unit_type]  # the call gives no amount in this unit: a typical one
    return round(gen.rng.uniform(lo, hi), 1)


def _sent_amount(flat: Mapping[str, Any], unit_type: str, unit: str) -> float | None:
    """The amount the call sent for a factor of ``unit_type``, in the factor's unit; None if none."""
    energy, weight, distance = _number(flat, "energy"), _number(flat, "weight"), _number(flat, "distance")
    kg = weight * _TO_KG.get(str(flat.get("weight_unit") or "kg").lower(), 1.0) if weight is not None else None
    km = distance * _TO_KM.get(str(flat.get("distance_unit") or "km").lower(), 1.0) if distance is not None else None
    if unit_type == "Energy":
        return energy * _TO_KWH.get(str(flat.get("energy_unit") or "kWh").lower(), 1.0) if energy is not None else None
    if unit_type == "Weight":
        return kg
    if km is None:
        return _number(flat, "money") if unit_type == "Money" else None
    if unit_type == "Distance":
        return km / _TO_KM["mi"] if unit == "mi" else km
    if unit_type == "PassengerOverDistance":
        return km * (_number(flat, "passengers") or 1.0)
    if unit_type == "WeightOverDistance":
        return km * kg / 1000 if kg is not None else None
    return _number(flat, "money") if unit_type == "Money" else None


def _legs(gen: Generation) -> list[Mapping[str, Any]]:
    legs = gen.args.get("legs")
    return [leg for leg in legs if isinstance(leg, Mapping)] if isinstance(legs, list) else []


def leg_km(gen: Generation, leg: Mapping[str, Any]) -> float:
    """The great-circle distance of a leg between the airports it names (0 when unknown)."""
    ref = gen.facts.reference
    ends = [next((str(v) for k, v in leg.items() if k.lower() in names and isinstance(v, str)), "")
            for names in (("from", "departure_airport", "origin"), ("to", "destination_airport", "destination"))]
    a, b = (ref.airport(code.strip().upper()) if 3 <= len(code.strip()) <= 4 else None for code in ends)
    if a is None or b is None:
        return 0.0
    return haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)


def leg_kg(gen: Generation, leg: Mapping[str, Any]) -> float:
    cabin = str(leg.get("class") or leg.get("cabin_class") or "economy").lower()
    passengers = leg.get("passengers") or gen.args.get("passengers") or 1
    seats = passengers if isinstance(passengers, int) and not isinstance(passengers, bool) else 1
    return leg_km(gen, leg) * _ROUTE_UPLIFT * seats * _CABIN.get(cabin, _CABIN["economy"])


def _this_leg(gen: Generation) -> Mapping[str, Any] | None:
    legs = _legs(gen)
    return legs[gen.scope.index] if gen.scope.in_list and gen.scope.index < len(legs) else None


def co2e_kg(gen: Generation) -> float:
    """The record's emissions in kg CO2e, from what the call describes (see the module doc)."""

    def make() -> float:
        flat, legs = _flat(gen), _legs(gen)
        leg = _this_leg(gen)
        if leg is not None:
            return leg_kg(gen, leg)
        if legs:
            return sum(leg_kg(gen, one) for one in legs)
        cpus = _number(flat, "cpu_count", "vcpus")
        if cpus is not None:
            return cloud_kwh(gen) * _cloud_intensity(flat)
        for key, value in flat.items():  # a mode of transport picks a freight factor
            if isinstance(value, str) and value.lower() in _FREIGHT and "method" in key:
                weight, distance = _number(flat, "weight_value", "weight"), _number(flat, "distance_value", "distance")
                if weight is not None and distance is not None:
                    return _FREIGHT[value.lower()] * weight * _TO_KG.get(str(flat.get("weight_unit", "kg")), 1.0) \
                        / 1000 * distance * _TO_KM.get(str(flat.get("distance_unit", "km")), 1.0)
        kwh = _number(flat, "electricity_value")
        if kwh is not None:
            return kwh * _TO_KWH.get(str(flat.get("electricity_unit") or "kwh").lower(), 1.0) * _grid(gen, flat)
        row = activity(gen)
        return float(row["factor"]) * activity_amount(gen, row)

    kg: float = gen.scope.once("co2e_kg", make, inherit=not gen.scope.in_list)
    return kg


def _grid(gen: Generation, flat: Mapping[str, Any]) -> float:
    """kg CO2e per kWh of the country's grid (the factor of that region, else a world average)."""
    country = str(flat.get("country") or flat.get("region") or "").upper()
    for row in gen.facts.vocab.get(KIND).records:
        if row["unit_type"] == "Energy" and row["category"] == "Electricity" and row["region"].split("-")[0] == country:
            return float(row["factor"])
    return 0.436


def cloud_kwh(gen: Generation) -> float:
    """Energy of vCPUs over hours at an average load: 0.74–3.5 W per vCPU, data-centre PUE 1.135."""
    flat = _flat(gen)
    cpus = _number(flat, "cpu_count", "vcpus") or 1.0
    hours = _number(flat, "duration", "hours", "duration_hours") or 1.0
    load = _number(flat, "average_vcpu_utilization", "cpu_load", "utilization")
    load = 0.5 if load is None else load / 100 if load > 1 else load
    watts = 0.74 + load * (3.5 - 0.74)
    return cpus * hours * watts / 1000 * 1.135


def _cloud_intensity(flat: Mapping[str, Any]) -> float:
    region = str(flat.get("region") or "").lower()
    return next((v for k, v in sorted(_CLOUD_KG_PER_KWH.items(), key=lambda kv: -len(kv[0])) if region.startswith(k)),
                0.4)


def estimate_type(gen: Generation) -> str:
    """What a Carbon Interface estimate estimates, from what the call gave."""
    flat = _flat(gen)
    if _legs(gen):
        return "flight"
    if "electricity_value" in flat:
        return "electricity"
    if "vehicle_model_id" in flat:
        return "vehicle"
    if "transport_method" in flat or "weight_value" in flat:
        return "shipping"
    if "fuel_source_type" in flat:
        return "fuel_combustion"
    return str(gen.rng.choice(("electricity", "flight", "shipping", "vehicle", "fuel_combustion")))


def _mass(scale: float, ndigits: int) -> Callable[[Generation], float]:
    return lambda g: round(co2e_kg(g) * scale, ndigits)


def flight_km(gen: Generation) -> float:
    """A flight's distance: the leg's, or the whole itinerary's (in the unit the call asks)."""
    leg = _this_leg(gen)
    km = leg_km(gen, leg) if leg is not None else sum(leg_km(gen, one) for one in _legs(gen))
    return round(km / _TO_KM["mi"] if str(gen.args.get("distance_unit", "km")).lower() == "mi" else km, 1)


EMISSION_KINDS: dict[str, Callable[[Generation], Any]] = {
    "co2e_kg": _mass(1.0, 3),
    "co2e_g": lambda g: round(co2e_kg(g) * 1000),
    "co2e_lb": _mass(2.20462, 2),
    "co2e_t": _mass(0.001, 6),
    "co2_kg": _mass(0.985, 3),  # the gases of a combustion factor: CO2 nearly all of it
    "ch4_kg": _mass(0.0003, 5),
    "n2o_kg": _mass(0.00004, 6),
    "co2e_unit": lambda g: "kg",
    "emission_activity_id": lambda g: activity(g)["activity_id"],
    "emission_factor_name": lambda g: activity(g)["name"],
    "emission_category": lambda g: activity(g)["category"],
    "emission_sector": lambda g: activity(g)["sector"],
    "emission_source": lambda g: activity(g)["source"],
    "emission_region": lambda g: activity(g)["region"],
    "emission_year": lambda g: activity(g)["year"],
    "emission_unit_type": lambda g: activity(g)["unit_type"],
    "emission_unit": lambda g: f"kg/{activity(g)['unit']}",
    "emission_factor": lambda g: activity(g)["factor"],
    "estimate_type": estimate_type,
    "flight_km": flight_km,
    "cloud_kwh": lambda g: round(cloud_kwh(g), 3),
    "asked_distance_unit": lambda g: "mi" if str(g.args.get("distance_unit", "km")).lower() == "mi" else "km",
}

"""EU VAT facts: a VAT number says its member state ("NL810462783B01" is Dutch, so is the
company registered under it), and a VAT rate table lists the member states' real rates.

``vat_number_step`` and ``vat_rate_step`` are asked once per object schema
(``record_steps``); the rates are the ``eu_vat_rate`` vocabulary (facts, January 2026).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import faker_pool
from env_server.simulators.scripture import call_once

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_VAT_NUMBER = re.compile(r"^\s*([A-Za-z]{2})[0-9A-Za-z+*]{2,13}\s*$")
_VAT_ARGS = ("vat_number", "vat", "vat_id", "vat_no", "vatin")
_PREFIX_TO_ISO = {"EL": "GR", "XI": "GB"}  # Greece writes EL; Northern Ireland XI
_RATES = "eu_vat_rate"


def vat_country(number: str) -> str | None:
    """The ISO country code a VAT number's prefix names, or None for no VAT number."""
    match = _VAT_NUMBER.match(number)
    if match is None:
        return None
    prefix = match.group(1).upper()
    return _PREFIX_TO_ISO.get(prefix, prefix)


def vat_number_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that puts a VAT number's company in the number's member state."""
    if not {"country_code", "address"} & set(props) or not set(_VAT_ARGS) & set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        number = next((record[k] for k in _VAT_ARGS if isinstance(record.get(k), str)), None)
        code = vat_country(number) if number else None
        ref = gen.facts.reference
        country = ref.country(code) if code else None
        if code is None or country is None:
            return
        if "country_code" in record:
            record["country_code"] = code
        capital = country.get("capital")
        place = ref.find_place(f"{capital}, {country['name']}") if capital else None
        if isinstance(record.get("address"), str) and place is not None:
            street = faker_pool("street_address")[gen.rng.randrange(len(faker_pool("street_address")))]
            record["address"] = f"{street}, {place.name}, {place.country}"

    return step


def vat_rate_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a VAT table row a member state's real rates (the one the call
    filters on, else each state once)."""
    if not {"country_code", "standard_rate"} <= set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        rates = gen.facts.vocab.get(_RATES).records
        asked = gen.args.get("country_code")
        row = next((r for r in rates if isinstance(asked, str) and r["country_code"] == asked.upper()), None)
        if row is None:
            offset = call_once(gen, "vat:offset", lambda: gen.rng.randrange(len(rates)))
            row = rates[(offset + (index or 0) * 7) % len(rates)]  # 7 and 27 are coprime: no repeats
        for key, value in row.items():
            if key in record and isinstance(value, list) and (props.get(key) or {}).get("type") == "object":
                record[key] = _by_category(value, props[key])
            elif key in record and _fits(value, props.get(key)):
                record[key] = list(value) if isinstance(value, list) else value

    return step


def vat_price_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that prices the call's amount with its member state's VAT: the standard rate,
    or the lowest reduced rate when the call names a reduced-rate category; ``incl`` says the
    amount already holds the VAT."""
    if not {"price_excl_vat", "price_incl_vat", "vat_rate"} <= set(props):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        asked, amount = gen.args.get("country_code"), gen.args.get("amount")
        row = next((r for r in gen.facts.vocab.get(_RATES).records
                    if isinstance(asked, str) and r["country_code"] == asked.upper()), None)
        if row is None or not isinstance(amount, (int, float)) or isinstance(amount, bool):
            return
        category = gen.args.get("type")
        reduced = row.get("reduced_rates") or []
        rate = float(min(reduced)) if isinstance(category, str) and reduced else float(row["standard_rate"])
        factor = 1 + rate / 100
        excl, incl = (amount / factor, float(amount)) if gen.args.get("incl") is True else (float(amount), amount * factor)
        record.update({"price_excl_vat": round(excl, 2), "price_incl_vat": round(incl, 2), "vat_rate": rate})
        for key, value in (("country_code", row["country_code"]), ("country_name", row["country_name"]),
                           ("type", category if isinstance(category, str) else "standard")):
            if key in record or key in props:
                record[key] = value

    return step


# Reduced-rate categories a member state taxes at its lowest reduced rate; the others (hotels,
# restaurants, transport, admissions) take its highest.
_ESSENTIALS = frozenset({"books", "foodstuffs", "medical", "newspapers", "pharmaceuticals", "water"})


def _by_category(rates: list[float], schema: dict[str, Any]) -> dict[str, float]:
    """A state's reduced rates as a category table (vatlayer's ``reduced_rates`` object);
    empty for a state with no reduced rate."""
    if not rates:
        return {}
    low, high = float(min(rates)), float(max(rates))
    return {name: low if name in _ESSENTIALS else high for name in schema.get("properties") or {}}


def _fits(value: Any, schema: Any) -> bool:
    if not isinstance(schema, dict):
        return True
    values = value if isinstance(value, list) else [value]
    bound = schema.get("items", schema) if isinstance(value, list) else schema
    lo, hi = bound.get("minimum"), bound.get("maximum")
    return all(not isinstance(v, (int, float)) or (lo is None or v >= lo) and (hi is None or v <= hi) for v in values)

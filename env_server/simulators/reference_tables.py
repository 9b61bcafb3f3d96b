"""Code tables from data packages: currency and language names (``pycountry``), a
country's public holidays in a year (``holidays``), car makes and their models (``mimesis``),
and what a VIN says of its maker, country and model year (``vininfo``).

``CodeTables`` is the part of ``reference.ReferenceData`` that holds them; each is loaded on
first use and kept on the instance.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import warnings
from importlib import resources
from typing import Any


def reference_table(name: str) -> Any:
    """One of our JSON tables under ``tool_specs/reference/``, parsed (callers keep what they
    derive from it, once per process)."""
    return json.loads((resources.files("tool_specs") / "reference" / name).read_text(encoding="utf-8"))


class CodeTables:
    """Currencies, languages, holidays and vehicles; mixed into ``ReferenceData``."""

    @functools.cached_property
    def currencies(self) -> dict[str, str]:
        import pycountry

        return {c.alpha_3: c.name for c in sorted(pycountry.currencies, key=lambda c: c.alpha_3)}

    @functools.cached_property
    def languages(self) -> dict[str, str]:
        import pycountry

        found = (lang for lang in pycountry.languages if hasattr(lang, "alpha_2"))
        return {lang.alpha_2: lang.name for lang in sorted(found, key=lambda lang: lang.alpha_2)}

    @functools.cached_property
    def _holidays(self) -> dict[tuple[str, int], list[tuple[dt.date, str]]]:
        return {}  # (country, year) -> that year's holidays, computed once each

    def holidays(self, country_code: str, year: int) -> list[tuple[dt.date, str]]:
        key = (country_code.upper(), year)
        found = self._holidays.get(key)
        if found is None:
            import holidays

            try:
                with warnings.catch_warnings():
                    # Some calendars (Brazil's, the liturgical ones) are only tabled for a span of
                    # years and warn outside it; the rules still give that year's fixed days.
                    warnings.simplefilter("ignore", UserWarning)
                    found = sorted(holidays.country_holidays(key[0], years=year).items())
            except NotImplementedError:
                found = []
            self._holidays[key] = found
        return found

    @functools.cached_property
    def car_models(self) -> dict[str, tuple[str, ...]]:
        """Make -> models, from mimesis' vehicle lists."""
        from mimesis.datasets.int.transport import AUTO_MANUFACTURERS, CARS

        makes = sorted(AUTO_MANUFACTURERS, key=len, reverse=True)  # "Alfa Romeo" before "Alfa"
        out: dict[str, list[str]] = {}
        for car in sorted(CARS):
            make = next((m for m in makes if car.startswith(m + " ")), None)
            if make is not None:
                out.setdefault(make, []).append(car[len(make) + 1:])
        return {make: tuple(models) for make, models in sorted(out.items())}

    def decode_vin(self, vin: str) -> dict[str, Any] | None:
        """Maker, country and model year of a VIN, or None when it is not a valid VIN."""
        from vininfo import Vin

        try:
            info = Vin(vin.strip().upper())
            maker = info.manufacturer
            years = info.years
        except Exception:  # vininfo raises bare errors on malformed input
            return None
        return {"make": str(maker), "country": str(info.country or ""), "region": str(info.region or ""),
                "wmi": info.wmi, "model_year": years[0] if years else None}

"""Street addresses in the record's own country: a Madrid address reads like one.

Street names and postcodes come from Faker's locale for the country (a fixed-seed pool
per locale, made on first use and kept on the instance); countries with no Latin-script
Faker locale get a city-level address ("Wong Tai Sin, Hong Kong") instead of a US-style
street in the wrong country.
"""

from __future__ import annotations

from dataclasses import dataclass

from env_server.simulators.reference import PlaceFact

# Country -> the Faker locale whose street names and postcodes read as that country's.
LOCALES = {
    "US": "en_US", "GB": "en_GB", "IE": "en_IE", "AU": "en_AU", "NZ": "en_NZ", "CA": "en_CA", "PH": "en_PH",
    "IN": "en_IN", "DE": "de_DE", "AT": "de_AT", "CH": "de_CH", "FR": "fr_FR", "BE": "nl_BE", "ES": "es_ES",
    "MX": "es_MX", "AR": "es_AR", "CL": "es_CL", "CO": "es_CO", "BR": "pt_BR", "PT": "pt_PT", "IT": "it_IT",
    "NL": "nl_NL", "PL": "pl_PL", "CZ": "cs_CZ", "SK": "sk_SK", "SI": "sl_SI", "HR": "hr_HR", "HU": "hu_HU",
    "RO": "ro_RO", "SE": "sv_SE", "DK": "da_DK", "NO": "no_NO", "FI": "fi_FI", "EE": "et_EE", "LT": "lt_LT",
    "LV": "lv_LV", "ID": "id_ID", "VN": "vi_VN",
}
# Where the house number comes first ("221 Baker Street", "12 rue de Rivoli").
_NUMBER_FIRST = frozenset({"US", "GB", "IE", "AU", "NZ", "CA", "PH", "IN", "FR"})
# Where the postcode follows the city ("Springfield, IL 62701"; "London SW1A 1AA").
_POSTCODE_AFTER = frozenset({"US", "GB", "IE", "AU", "NZ", "CA", "PH", "IN", "ID", "VN"})
POOL_SIZE = 200
_POOL_SEED = 20260116


@dataclass(frozen=True)
class StreetPool:
    names: tuple[str, ...]
    postcodes: tuple[str, ...]


@dataclass(frozen=True)
class Address:
    """One address in a place: its parts and the lines they make."""

    place: PlaceFact
    street_name: str  # "" for a city-level address
    house_number: str
    postcode: str

    @property
    def street(self) -> str:
        if not self.street_name:
            return self.place.name
        if self.place.country_code in _NUMBER_FIRST:
            return f"{self.house_number} {self.street_name}"
        return f"{self.street_name} {self.house_number}"

    @property
    def locality(self) -> str:
        """City and postcode in the country's order ("28013 Madrid", "Boston, MA 02108")."""
        place = self.place
        if not self.postcode:
            return place.name
        if place.country_code in _POSTCODE_AFTER:
            region = f"{place.region} " if place.region != place.country else ""
            return f"{place.name}, {region}{self.postcode}"
        return f"{self.postcode} {place.name}"

    @property
    def full(self) -> str:
        parts = [self.street] if self.street_name else []
        return ", ".join([*parts, self.locality, self.place.country])


class AddressBook:
    """Per-locale street pools, made on first use (one instance serves a process)."""

    def __init__(self) -> None:
        self._pools: dict[str, StreetPool] = {}

    def pool(self, country_code: str) -> StreetPool | None:
        locale = LOCALES.get(country_code)
        if locale is None:
            return None
        found = self._pools.get(locale)
        if found is None:
            from faker import Faker

            fake = Faker(locale)
            fake.seed_instance(_POOL_SEED)
            names = tuple(str(fake.street_name()) for _ in range(POOL_SIZE))
            postcodes = tuple(str(fake.postcode()) for _ in range(POOL_SIZE))
            found = self._pools[locale] = StreetPool(names, postcodes)
        return found

    def address(self, place: PlaceFact, pick: int) -> Address:
        """Address ``pick`` (any integer, e.g. a seeded draw) in ``place``."""
        pool = self.pool(place.country_code)
        if pool is None:
            return Address(place, "", "", "")
        number = str(1 + pick % 197)
        postcode = pool.postcodes[(pick // 7) % POOL_SIZE]
        if place.country_code == "US":  # a real ZIP of the town, not Faker's any five digits
            from env_server.simulators.us_zips import place_zip

            postcode = place_zip(place, pick // 7)
        return Address(place, pool.names[pick % POOL_SIZE], number, postcode)

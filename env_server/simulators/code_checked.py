"""Registry numbers whose last digits check the rest: EAN-13 and UPC-A barcodes, ISINs, CUSIPs,
FIGIs, CAS registry numbers, ORCID iDs and EU VAT numbers.

Each is drawn as the registry writes it, with its check digits computed by python-stdnum's
own algorithms, so a validator (stdnum's, or the registry's) accepts what we return. stdnum
is imported on the first draw (its import costs ~25 ms of a cold start).
"""

from __future__ import annotations

import functools
import string
from types import SimpleNamespace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# GS1 prefixes of the member organisations most products carry (facts): US/Canada, France,
# Germany, Japan, UK, Italy, Spain, Netherlands, Switzerland, China.
_GS1_PREFIXES = ("00", "03", "06", "07", "30", "34", "37", "40", "42", "44", "45", "49", "50", "80", "84", "87",
                 "76", "69")
_CUSIP_ALPHABET = string.digits + string.ascii_uppercase
_FIGI_ALPHABET = "0123456789BCDFGHJKLMNPQRSTVWXYZ"  # no vowels


@functools.lru_cache(maxsize=1)
def _std() -> SimpleNamespace:
    from stdnum import casrn, cusip, ean, figi, isin, luhn
    from stdnum.iso7064 import mod_11_2, mod_11_10

    return SimpleNamespace(casrn=casrn, cusip=cusip, ean=ean, figi=figi, isin=isin, luhn=luhn, mod_11_2=mod_11_2,
                           mod_11_10=mod_11_10)


def _digits(gen: Generation, n: int) -> str:
    return "".join(gen.rng.choice(string.digits) for _ in range(n))


def ean13(gen: Generation) -> str:
    """A GTIN-13 under a real GS1 prefix."""
    body = gen.rng.choice(_GS1_PREFIXES) + _digits(gen, 10)
    return body + _std().ean.calc_check_digit(body)


def upc_a(gen: Generation) -> str:
    """A 12-digit UPC-A (number system 0, 6, 7 or 8: regular consumer goods)."""
    body = gen.rng.choice("0678") + _digits(gen, 10)
    return body + _std().ean.calc_check_digit(body)


def _cusip(gen: Generation) -> str:
    def make() -> str:
        issuer = _digits(gen, 3) + "".join(gen.rng.choice(_CUSIP_ALPHABET) for _ in range(3))
        body = issuer + gen.rng.choice(("10", "10", "20", "30", "1Y", "40"))
        return body + _std().cusip.calc_check_digit(body)

    found: str = gen.scope.once("cusip", make, inherit=True)
    return found


def cusip_number(gen: Generation) -> str:
    return _cusip(gen)


def isin_number(gen: Generation) -> str:
    """A US ISIN wrapping the record's CUSIP (so the two agree)."""
    body = "US" + _cusip(gen)
    return body + _std().isin.calc_check_digit(body)


def figi_number(gen: Generation) -> str:
    body = "BBG00" + "".join(gen.rng.choice(_FIGI_ALPHABET) for _ in range(6))
    return body + _std().figi.calc_check_digit(body)


def cas_number(gen: Generation) -> str:
    """A CAS registry number ("7732-18-5"): 2 to 7 digits, 2 digits, a check digit."""
    head = str(gen.rng.randint(50, 9_999_999))
    mid = _digits(gen, 2)
    return f"{head}-{mid}-{_std().casrn.calc_check_digit(head + mid)}"


def orcid(gen: Generation) -> str:
    """An ORCID iD ("0000-0002-1825-0097"), ISO 7064 MOD 11-2 check character last."""
    body = "000000" + str(gen.rng.randint(1, 3)) + _digits(gen, 8)
    full = body + _std().mod_11_2.calc_check_digit(body)
    return "-".join(full[i:i + 4] for i in range(0, 16, 4))


def _vat_de(gen: Generation) -> str:
    body = str(gen.rng.randint(1, 9)) + _digits(gen, 7)
    return "DE" + body + _std().mod_11_10.calc_check_digit(body)


def _vat_nl(gen: Generation) -> str:
    while True:  # one draw in eleven has no check digit; draw again
        body = _digits(gen, 8)
        check = sum(int(c) * w for c, w in zip(body, range(9, 1, -1), strict=True)) % 11
        if check < 10:
            return f"NL{body}{check}B0{gen.rng.randint(1, 3)}"


def _vat_be(gen: Generation) -> str:
    body = str(gen.rng.choice((0, 0, 1))) + str(gen.rng.randint(2, 9)) + _digits(gen, 6)
    return f"BE{body}{97 - int(body) % 97:02d}"


def _vat_it(gen: Generation) -> str:
    body = _digits(gen, 7) + f"{gen.rng.randint(1, 100):03d}"
    return "IT" + body + _std().luhn.calc_check_digit(body)


def _vat_fr(gen: Generation) -> str:
    siren = str(gen.rng.randint(1, 9)) + _digits(gen, 7)
    siren += _std().luhn.calc_check_digit(siren)
    return f"FR{(12 + 3 * (int(siren) % 97)) % 97:02d}{siren}"


_VAT = (_vat_de, _vat_de, _vat_nl, _vat_fr, _vat_it, _vat_be)


def vat_number(gen: Generation) -> str:
    """An EU VAT number of a member state, its check digits right."""
    return gen.rng.choice(_VAT)(gen)

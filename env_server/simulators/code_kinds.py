"""Code-like fields in the formats their registries write: IMDb title ids, ISRCs, barcodes,
exchange MICs, SIC and ICD-10 codes, user agents, patent numbers, VAT numbers, licence plates,
NDC drug codes, ICAO 24-bit aircraft addresses, securities ids, CAS numbers, ORCID iDs, EINs,
UK company numbers, dice notation, arXiv categories and MAC addresses.

``code_kind(field, entity)`` names the kind a snake_case field name implies, some only in a
record of the right entity (a bare ``exchange`` is a stock exchange in a quote, not in a
crypto market; ``publication_number`` is a patent's in a patent record). It is asked through
``id_formats.id_format_kind``, so it runs once per field when a plan is compiled and its kinds
beat a broad profile hint ("code" drew "tt" ids as "TQQ0NAY3"). ``CODE_PATTERNS`` is what a
value of each kind looks like (the audit's identifier check, the tests' oracle). Fields that
are opaque in the real API (row ids, tokens, keys, short-link slugs) keep their kinds.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.code_checked import (
    cas_number,
    cusip_number,
    ean13,
    figi_number,
    isin_number,
    orcid,
    upc_a,
    vat_number,
)
from env_server.simulators.code_facts import FACT_CODE_KINDS
from env_server.simulators.fr_documents import FR_CODE_KINDS

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_STOCK = frozenset({"stock", "stocks", "ticker", "tickers", "quote", "quotes", "equity", "equities", "share", "shares",
                    "listing", "listings", "security", "securities", "company", "companies", "profile", "overview",
                    "eod", "intraday", "fundamentals", "screener", "instrument", "instruments", "symbol", "symbols",
                    "etf", "fund", "funds"})
_CRYPTO = frozenset({"coin", "coins", "crypto", "cryptocurrency", "token", "tokens", "pair", "pairs", "wallet", "nft",
                     "defi", "dex"})
_VENUES = frozenset({"exchange", "exchanges"})
_PATENT = frozenset({"patent", "patents", "publication", "publications", "family", "families", "bibliographic",
                     "biblio", "legal", "invention", "inventions", "claim", "claims", "application", "applications"})
_COMPANY = frozenset({"company", "companies", "business", "businesses", "firm", "firms", "organisation",
                      "organization", "shareholder", "shareholders", "corporate", "officer", "officers", "entity",
                      "registrant", "charity", "charities", "profile"})
_PAPER = frozenset({"paper", "papers", "preprint", "preprints", "article", "articles", "arxiv", "entry", "entries"})
_FILING = frozenset({"filing", "filings", "registrant", "registrants", "submission", "submissions", "edgar", "sec"})
_DRUG = frozenset({"drug", "drugs", "ndc", "medication", "medications", "medicine", "medicines", "label", "labels",
                   "ingredient", "ingredients", "product", "products", "prescription", "rx"})
_SHEET = frozenset({"value", "values", "range", "ranges", "sheet", "sheets", "spreadsheet", "spreadsheets", "update",
                    "updates", "append", "grid"})
_SERIES = frozenset({"series", "observation", "observations", "indicator", "indicators"})
_FED_REGISTER = frozenset({"fr", "register", "inspection", "rule", "rules", "notice", "notices", "regulation"})
_GAUGE = frozenset({"site", "sites", "daily", "statistic", "statistics", "gauge", "water", "stream"})
_ANY: frozenset[str] = frozenset()

# (field-name pattern, kind, entity words the record needs (none: any), entity words it must not have)
_RULES: tuple[tuple[re.Pattern[str], str, frozenset[str], frozenset[str]], ...] = tuple(
    (re.compile(p), k, within, without) for p, k, within, without in (
        (r"^(imdb|imdb_id|imdbid|imdb_code|imdb_title_id|tconst)$", "imdb_id", _ANY, _ANY),
        (r"^(isrc|isrcs|isrc_code)$", "isrc", _ANY, _ANY),
        (r"^(ean|ean13|ean_13|gtin|gtin13|gtin_13|gtin_upc|gtinupc|barcode|bar_code|barcode_number|ean_code)$",
         "ean13", _ANY, _ANY),
        (r"^(upc|upc_a|upca|upc_code)$", "upc", _ANY, _ANY),
        (r"^(mic|mic_code|operating_mic|exchange_mic|market_identifier_code)$", "venue_mic", _VENUES, _CRYPTO),
        (r"^(acronym|exchange_acronym)$", "venue_acronym", _VENUES, _CRYPTO),
        (r"^acronym$", "exchange_acronym", _STOCK, _CRYPTO),  # a listing's exchange, nested in its ticker
        (r"^(mic|mic_code|operating_mic|exchange_mic|market_identifier_code|primary_exchange)$", "exchange_mic",
         _ANY, _CRYPTO),
        (r"^(exchange|exchange_short_name|exchange_acronym|listing_exchange|stock_exchange)$", "exchange_acronym",
         _STOCK, _CRYPTO),
        (r"^(exchange_name|exchange_full_name|exchange_long_name)$", "exchange_name", _STOCK, _CRYPTO),
        (r"^(sic|sic_code|standard_industrial_classification)$", "sic_code", _ANY, _ANY),
        (r"^(sic_description|sicdescription|sic_desc|sic_title)$", "sic_description", _ANY, _ANY),
        (r"^sic_codes$", "uk_sic_code", _ANY, _ANY),  # Companies House files a company under UK SIC 2007
        (r"^(icd10|icd_10|icd10_code|icd_10_code|icd_code|icd10cm|icd10_cm|diagnosis_code)$", "icd10_code", _ANY, _ANY),
        (r"^(icd10_description|icd_description|diagnosis_description|diagnosis_name)$", "icd10_description",
         _ANY, _ANY),
        (r"^(atc|atc_code|atc_codes)$", "atc_code", _ANY, _ANY),
        (r"^(user_agent|useragent|user_agent_string|useragentstring|ua_string|http_user_agent)$", "user_agent",
         _ANY, _ANY),
        (r"^(patent_number|patent_no|patent_num)$", "patent_number", _ANY, _ANY),
        (r"^patent_id$", "patent_id", _ANY, _ANY),
        (r"^(publication_number|publication_numbers|doc_number|publication_reference)$", "ep_publication_number",
         _PATENT, _ANY),
        (r"^(application_number|application_numbers|priority_number|priority_numbers)$", "patent_application_number",
         _PATENT, _ANY),
        (r"^(family_id|inpadoc_family_id|patent_family_id)$", "patent_family_id", _PATENT, _ANY),
        (r"^(cpc|ipc)(_group|_subgroup|_code|_class|_classe|_classes|_classification)?$", "patent_class", _ANY, _ANY),
        (r"^(fiscal_year_end|fiscalyearend|fy_end)$", "fiscal_year_end", _ANY, _ANY),
        (r"^accession_number$", "sec_accession_number", _FILING, _ANY),
        (r"^(vat|vat_number|vat_id|vat_no|vatin|vat_code|vat_registration_number)$", "vat_number", _ANY, _ANY),
        (r"^(license_plate|licence_plate|license_plate_number|licence_plate_number|plate_number|number_plate|"
         r"registration_plate|vehicle_plate|licenseplate)$", "license_plate", _ANY, _ANY),
        (r"^(ndc|ndc_code|product_ndc|ndc_product_code)$", "product_ndc", _ANY, _ANY),
        (r"^(package_ndc|ndc_package_code|ndc11)$", "package_ndc", _ANY, _ANY),
        (r"^(icao24|icao_24|icao24_address|mode_s|mode_s_code)$", "icao24", _ANY, _ANY),
        (r"^(merge_commit_sha|squash_commit_sha|parent_sha|tree_sha|base_sha|start_sha|before_sha|after_sha|"
         r"last_commit_sha|latest_commit_sha)$", "git_sha", _ANY, _ANY),
        (r"^(isin|isin_code)$", "isin", _ANY, _ANY),
        (r"^(cusip|cusip_number)$", "cusip", _ANY, _ANY),
        (r"^(figi|composite_figi|share_class_figi)$", "figi", _ANY, _ANY),
        (r"^(cas|cas_number|cas_no|casrn|cas_rn|cas_registry_number)$", "cas_number", _ANY, _ANY),
        (r"^(orcid|orcid_id|orcid_identifier)$", "orcid", _ANY, _ANY),
        (r"^(ein|fein|ein_number|employer_identification_number|tax_id_ein)$", "ein", _ANY, _ANY),
        (r"^(company_number|company_registration_number|registered_number)$", "company_number", _ANY, _ANY),
        (r"^(registration_number|reg_number|registration_no)$", "company_number", _COMPANY, _ANY),
        (r"^(damage_dice|hit_dice|hit_die|damage_die|dice)$", "dice", _ANY, _ANY),
        (r"^(primary_category|arxiv_primary_category|arxiv_category)$", "arxiv_category", _PAPER, _ANY),
        (r"^(site_no|site_number|usgs_site|monitoring_location_number)$", "usgs_site_number", _ANY, _ANY),
        (r"^(strength|active_ingredient_strength|dose_strength|dosage_strength)$", "drug_strength", _DRUG, _ANY),
        (r"^(updated_range|table_range|range|a1_range|sheet_range)$", "a1_range", _SHEET, _ANY),
        (r"^units$", "series_units", _SERIES, _ANY),
        (r"^units_short$", "series_units_short", _SERIES, _ANY),
        (r"^(stat_cd|stat_code|statistic_code)$", "usgs_stat_code", _GAUGE, _ANY),
        (r"^(parameter_cd|parameter_code)$", "usgs_parameter_code", _GAUGE, _ANY),
        (r"^document_number$", "fr_document_number", _FED_REGISTER, _ANY),
        (r"^(citation|fr_citation)$", "fr_citation", _FED_REGISTER, _ANY),
        (r"^(regulation_id_numbers|regulation_id_number|rin|rins)$", "regulation_id_number", _FED_REGISTER, _ANY),
        (r"^(mac|mac_address|macaddress|bssid|hw_address|hardware_address)$", "mac_address", _ANY, _ANY),
    ))


@functools.lru_cache(maxsize=8192)
def code_kind(low: str, entity: str) -> str | None:
    """The code kind a snake_case field name implies in a record of ``entity``, or None."""
    words = frozenset(entity.split("_"))
    for pattern, kind, within, without in _RULES:
        if pattern.match(low) and (not within or words & within) and not words & without:
            return kind
    return None


def _digits(gen: Generation, n: int) -> str:
    return "".join(gen.rng.choice(string.digits) for _ in range(n))


def imdb_id(gen: Generation) -> str:
    """An IMDb title id: "tt" and 7 digits, or 8 for titles added since 2020."""
    if gen.rng.random() < 0.6:
        return f"tt{gen.rng.randint(100_000, 9_999_999):07d}"
    return f"tt{gen.rng.randint(10_000_000, 33_999_999)}"


# ISRC country prefixes most releases carry (US and its extra QM/QZ ranges, UK, Germany, ...).
_ISRC_COUNTRIES = ("US", "US", "US", "QM", "QZ", "GB", "GB", "DE", "FR", "SE", "NL", "CA", "AU", "JP", "BR", "KR")


def isrc(gen: Generation) -> str:
    """An ISRC ("USUM71703861"): country, registrant, two-digit year, designation."""
    registrant = "".join(gen.rng.choice(string.ascii_uppercase) for _ in range(2))
    registrant += gen.rng.choice(string.ascii_uppercase + string.digits)
    year = (gen.today.year - gen.rng.randint(0, 30)) % 100
    return f"{gen.rng.choice(_ISRC_COUNTRIES)}{registrant}{year:02d}{_digits(gen, 5)}"


def patent_grant(gen: Generation) -> int:
    found: int = gen.scope.once("us_patent", lambda: gen.rng.randint(10_500_000, 12_300_000), inherit=True)
    return found


def ep_publication(gen: Generation) -> str:
    return f"EP{gen.rng.randint(3_000_000, 4_450_000)}{gen.rng.choice(('A1', 'A1', 'B1', 'A2'))}"


def patent_application(gen: Generation) -> str:
    """An application number as EPO writes it: "EP19812345", or another office's "US2019123456"."""
    year = gen.today.year - gen.rng.randint(1, 12)
    office = gen.rng.choice(("EP", "EP", "US", "DE", "JP", "CN", "GB"))
    if office == "EP":
        return f"EP{year % 100:02d}{_digits(gen, 6)}"
    return f"{office}{year}{_digits(gen, 6)}"


# CPC subclasses most filings fall in (facts: H04L transmission, G06F computing, A61K
# medicines, ...), each with a main group it really has.
_CPC = (("H04L", "9"), ("H04L", "67"), ("G06F", "16"), ("G06F", "3"), ("G06N", "3"), ("A61K", "31"), ("A61B", "5"),
        ("H01L", "21"), ("H04W", "72"), ("B60L", "53"), ("C07D", "401"), ("G01N", "33"), ("G06Q", "30"), ("H01M", "10"))


def patent_class(gen: Generation) -> str:
    subclass, group = gen.rng.choice(_CPC)
    return f"{subclass} {group}/{gen.rng.choice(('00', '02', '04', '08', '10', '32', '44', '0816', '1095'))}"


def license_plate(gen: Generation) -> str:
    """A US plate in a state's serial format (California "8ABC123", New York and Texas "KDT-4821")."""
    letters = "".join(gen.rng.choice(string.ascii_uppercase) for _ in range(3))
    if gen.rng.random() < 0.5:
        return f"{gen.rng.randint(4, 9)}{letters}{_digits(gen, 3)}"
    return f"{letters}-{_digits(gen, 4)}"


def _ndc(gen: Generation) -> tuple[str, str]:
    """A labeler-product code and its package, in one of the FDA's three layouts."""
    def make() -> tuple[str, str]:
        layout = gen.rng.choice(((4, 4, 2), (5, 3, 2), (5, 4, 1)))
        labeler, product, package = (_digits(gen, n) for n in layout)
        return f"{labeler}-{product}", package

    found: tuple[str, str] = gen.scope.once("ndc", make, inherit=True)
    return found


# IRS campus prefixes (facts) an EIN begins with.
_EIN_PREFIXES = ("04", "13", "20", "23", "26", "27", "30", "35", "36", "45", "46", "47", "52", "54", "56", "61", "72",
                 "75", "81", "82", "84", "86", "88", "91", "94", "95")


def ein(gen: Generation) -> str:
    return f"{gen.rng.choice(_EIN_PREFIXES)}-{_digits(gen, 7)}"


def company_number(gen: Generation) -> str:
    """A UK company number: 8 digits (England and Wales) or a two-letter register and 6."""
    if gen.rng.random() < 0.8:
        return f"{gen.rng.randint(1, 16_000_000):08d}"
    return gen.rng.choice(("SC", "NI", "OC")) + _digits(gen, 6)


def dice(gen: Generation) -> str:
    count, die = gen.rng.randint(1, 4), gen.rng.choice((4, 6, 6, 8, 8, 10, 12))
    bonus = gen.rng.choice((0, 0, 1, 2, 3, 4))
    return f"{count}d{die}" + (f" + {bonus}" if bonus else "")


# arXiv's busiest categories (facts of its taxonomy).
_ARXIV = ("cs.LG", "cs.LG", "cs.CV", "cs.CL", "cs.AI", "cs.RO", "cs.CR", "stat.ML", "math.OC", "math.PR", "math.CO",
          "quant-ph", "hep-th", "hep-ph", "gr-qc", "astro-ph.GA", "astro-ph.CO", "astro-ph.HE", "cond-mat.mes-hall",
          "cond-mat.str-el", "physics.optics", "q-bio.NC", "eess.SP", "econ.EM")


def icao24(gen: Generation) -> str:
    """An aircraft's ICAO 24-bit address in lowercase hex, in a real country block (US "a…")."""
    block = gen.rng.choice(("a", "a", "a", "3c", "40", "48", "4c", "39", "c0", "7c"))
    return block + f"{gen.rng.getrandbits(4 * (6 - len(block))):0{6 - len(block)}x}"


def sec_accession(gen: Generation) -> str:
    """An EDGAR accession number: the filer agent's CIK, the year, a sequence ("0000320193-24-000123")."""
    cik = gen.snaked_args.get("cik")
    filer = f"{int(cik):010d}" if isinstance(cik, str) and cik.isdigit() else f"{gen.rng.randint(1_000, 1_999_999):010d}"
    return f"{filer}-{(gen.today.year - gen.rng.randint(0, 3)) % 100:02d}-{gen.rng.randint(1, 250_000):06d}"


# Strengths as labels print them: an amount and its unit, per dose form.
_STRENGTHS = ("5 mg", "10 mg", "20 mg", "25 mg", "40 mg", "50 mg", "100 mg", "200 mg", "250 mg", "500 mg", "1 g",
              "0.5 mg", "2.5 mg", "81 mg", "325 mg", "10 mg/mL", "250 mg/5 mL", "100 mcg", "50 mcg/actuation", "1%")


# FRED's unit names with the short forms it prints beside them (facts of its series pages).
SERIES_UNITS = (("Percent", "%"), ("Billions of Dollars", "Bil. of $"), ("Index 1982-1984=100", "Index 1982-1984=100"),
                 ("Thousands of Persons", "Thous. of Persons"), ("Billions of Chained 2017 Dollars", "Bil. of Chn. 2017 $"),
                 ("Dollars per Barrel", "$ per Barrel"), ("Percent Change from Year Ago", "% Chg. from Yr. Ago"),
                 ("Index 2017=100", "Index 2017=100"), ("Millions of Dollars", "Mil. of $"),
                 ("Thousands of Units", "Thous. of Units"), ("Dollars per Gallon", "$ per Gal."),
                 ("Number", "Number"))


def _series_units(gen: Generation) -> tuple[str, str]:
    found: tuple[str, str] = gen.scope.once("series_units", lambda: gen.rng.choice(SERIES_UNITS), inherit=True)
    return found


def a1_range(gen: Generation) -> str:
    """A sheet range in A1 notation ("Sheet1!A1:D12"): the sheet the call names, else Sheet1."""
    asked = gen.snaked_args.get("range")
    sheet = asked.split("!", 1)[0] if isinstance(asked, str) and "!" in asked else "Sheet1"
    first = gen.rng.randint(1, 40)
    return f"{sheet}!A{first}:{gen.rng.choice('BCDEFGH')}{first + gen.rng.randint(0, 60)}"


def mac_address(gen: Generation) -> str:
    first = gen.rng.randrange(0, 256) & 0xFC  # unicast, globally administered
    rest = ":".join(f"{gen.rng.randrange(256):02x}" for _ in range(5))
    return f"{first:02x}:{rest}"


CODE_KINDS: dict[str, Callable[[Generation], Any]] = {
    **FACT_CODE_KINDS,
    **FR_CODE_KINDS,
    "imdb_id": imdb_id,
    "isrc": isrc,
    "ean13": ean13,
    "upc": upc_a,
    "patent_number": lambda g: f"US{patent_grant(g)}{g.rng.choice(('B2', 'B2', 'B1'))}",
    "patent_id": lambda g: str(patent_grant(g)),
    "ep_publication_number": ep_publication,
    "patent_application_number": patent_application,
    "patent_family_id": lambda g: str(g.rng.randint(40_000_000, 92_000_000)),
    "patent_class": patent_class,
    "vat_number": vat_number,
    "license_plate": license_plate,
    "product_ndc": lambda g: _ndc(g)[0],
    "package_ndc": lambda g: "-".join(_ndc(g)),
    "icao24": icao24,
    "isin": isin_number,
    "cusip": cusip_number,
    "figi": figi_number,
    "cas_number": cas_number,
    "orcid": orcid,
    "ein": ein,
    "company_number": company_number,
    "dice": dice,
    "arxiv_category": lambda g: g.rng.choice(_ARXIV),
    "mac_address": mac_address,
    # Most companies close their year at a quarter's end, most of them in December.
    "fiscal_year_end": lambda g: g.rng.choice(("1231", "1231", "1231", "1231", "0930", "0630", "0331", "0131")),
    "sec_accession_number": sec_accession,
    "usgs_site_number": lambda g: f"{g.rng.randint(1_000_000, 14_999_999):08d}",
    "drug_strength": lambda g: g.rng.choice(_STRENGTHS),
    "a1_range": a1_range,
    "series_units": lambda g: _series_units(g)[0],
    "series_units_short": lambda g: _series_units(g)[1],
    # USGS statistic codes (mean, maximum, minimum, median) and parameter codes (discharge,
    # gage height, water temperature, precipitation, dissolved oxygen, specific conductance).
    "usgs_stat_code": lambda g: g.rng.choice(("00003", "00003", "00001", "00002", "00008")),
    "usgs_parameter_code": lambda g: g.rng.choice(("00060", "00060", "00065", "00010", "00045", "00300", "00095")),
    "fr_document_number": lambda g: f"{g.today.year - g.rng.randint(0, 3)}-{g.rng.randint(100, 28_999):05d}",
}

# What a value of each kind looks like.
CODE_PATTERNS: dict[str, re.Pattern[str]] = {k: re.compile(p) for k, p in {
    "imdb_id": r"^tt\d{7,8}$", "isrc": r"^[A-Z]{2}[A-Z0-9]{3}\d{7}$", "ean13": r"^\d{13}$", "upc": r"^\d{12}$",
    "venue_mic": r"^[A-Z0-9]{4}$", "exchange_mic": r"^[A-Z0-9]{4}$", "sic_code": r"^\d{4,5}$",
    "uk_sic_code": r"^\d{5}$", "icd10_code": r"^[A-Z]\d{2}(\.[0-9A-Z]{1,4})?$", "atc_code": r"^[A-Z]\d{2}[A-Z]{2}\d{2}$",
    "user_agent": r"^(Mozilla/5\.0 \(|[A-Za-z][\w.-]*/\d)", "patent_number": r"^US\d{7,8}[AB]\d$", "patent_id": r"^\d{7,8}$",
    "ep_publication_number": r"^EP\d{7}[AB]\d$", "patent_application_number": r"^[A-Z]{2}\d{8,10}$",
    "vat_number": r"^[A-Z]{2}[0-9A-Z]{8,12}$", "product_ndc": r"^\d{4,5}-\d{3,4}$",
    "package_ndc": r"^\d{4,5}-\d{3,4}-\d{1,2}$", "icao24": r"^[0-9a-f]{6}$", "isin": r"^[A-Z]{2}[A-Z0-9]{9}\d$",
    "cusip": r"^[0-9A-Z]{9}$", "figi": r"^BBG[0-9B-DF-HJ-NP-TV-Z]{8}\d$", "cas_number": r"^\d{2,7}-\d{2}-\d$",
    "orcid": r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$", "ein": r"^\d{2}-\d{7}$", "mac_address": r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$",
    "fiscal_year_end": r"^((0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])|\d{4}-\d{2}-\d{2})$", "sec_accession_number": r"^\d{10}-\d{2}-\d{6}$",
    "usgs_site_number": r"^\d{8,15}$", "usgs_stat_code": r"^\d{5}$", "usgs_parameter_code": r"^\d{5}$",
    "fr_document_number": r"^\d{4}-\d{5}$", "fr_citation": r"^\d{1,3} FR \d{1,6}$",
    "regulation_id_number": r"^\d{4}-[A-Z]{2}\d{2}$", "a1_range": r"^[^!]+![A-Z]+\d+(:[A-Z]+\d+)?$",
}.items()}

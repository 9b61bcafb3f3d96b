"""A Federal Register document's citation and regulation identifiers agree with the document.

A citation is the volume and page the document was printed at: volume 1 is 1936, so a
document published in 2026 is cited "91 FR 12345", and pages run through the year (a
December document sits near the volume's end). A Regulation Identifier Number is the
agency's four-digit Unified Agenda code, two letters and two digits ("2120-AL12"); rules and
proposed rules carry one, notices and presidential documents none.

The document's title, abstract, type and agencies are one entry of the record vocabulary
``tool_specs/vocab/fr_document.json`` (the spec hints them from it), whose ``rin_prefix`` is
the publishing agency's code. ``fr_step(entity, props)`` is asked once per object schema
(``record_steps``); ``FR_CODE_KINDS`` draws either value where no record holds its facts.
"""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

FIRST_VOLUME_YEAR = 1935  # volume 1 was printed in 1936
_PAGES_PER_YEAR = 100_000  # about what a recent volume runs to
_RIN_PREFIXES = ("2120", "2060", "0910", "0579", "0648", "1018", "1545", "1218", "1625", "1904", "0938", "2127")
_RULE_TYPES = frozenset({"Rule", "Proposed Rule"})
_CITATION = "citation"
_RINS = "regulation_id_numbers"
_DATE = "publication_date"


def citation_for(day: dt.date, jitter: int) -> str:
    """The citation of a document printed on ``day``: its volume and a page that far into the year."""
    page = max(1, (day.timetuple().tm_yday - 1) * _PAGES_PER_YEAR // 366 + jitter)
    return f"{day.year - FIRST_VOLUME_YEAR} FR {page}"


def draw_rin(gen: Generation, prefix: str | None = None) -> str:
    """A RIN: the agency's code (``prefix``, else a drawn one), two letters and two digits."""
    letters = "A" + gen.rng.choice("ABCDEFGHJKLMNOPQRSTUVWXY") if gen.rng.random() < 0.8 else \
        "".join(gen.rng.choice(string.ascii_uppercase) for _ in range(2))
    return f"{prefix or gen.rng.choice(_RIN_PREFIXES)}-{letters}{gen.rng.randint(0, 99):02d}"


def _drawn_citation(gen: Generation) -> str:
    return citation_for(gen.today - dt.timedelta(days=gen.rng.randint(0, 900)), gen.rng.randint(0, 250))


FR_CODE_KINDS: dict[str, Callable[[Generation], Any]] = {
    "fr_citation": _drawn_citation,
    "regulation_id_number": draw_rin,
}


def _day(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def fr_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that cites a Federal Register record by its publication date and gives its
    rules their agency's RINs, or None for records without a citation or RIN list."""
    cites = _CITATION in props and _DATE in props
    lists = _RINS in props
    if not (cites or lists) or "fr" not in entity.split("_"):
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        day = _day(record.get(_DATE))
        if cites and day is not None and isinstance(record.get(_CITATION), str):
            record[_CITATION] = citation_for(day, gen.rng.randint(0, 250))
        if lists and isinstance(record.get(_RINS), list):
            fact = gen.scope.vocab_record("fr_document") if "fr_document" in gen.facts.vocab else {}
            ruled = record.get("type", fact.get("type")) in _RULE_TYPES
            record[_RINS] = [draw_rin(gen, fact.get("rin_prefix"))] if ruled else []

    return step

"""``toolenv specs audit``: call every tool as an agent would and report what breaks the illusion.

Each audited tool gets a fresh in-memory session over its whole family (so the family's
readers can resolve the ids its searches return), with a fixed seed. The tool is called
with ``sample_arguments(spec, 0)`` (variant 1 when variant 0 is rejected as invalid), and
the result is judged by the detectors in ``audit_checks`` (``toolenv specs audit --help``
describes each check kind).

A tool that crashes the audit itself is reported as an ``infra_error`` finding: the audit
never stops on one tool.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from env_server.catalog import Catalog
from env_server.catalog.models import Operation, ToolSpec
from env_server.config import ServerSettings
from env_server.environment import ToolEnvironment
from env_server.errors import ToolenvError
from env_server.session_types import CallOutcome
from env_server.simulators.base import session_now
from env_server.simulators.draws import faker_texts
from env_server.simulators.generic import reports_current
from env_server.simulators.records import default_facts
from env_server.simulators.text_kinds import sentence_spans, word_spans
from env_server.simulators.write_stamps import stamp_pattern
from env_server.specs import audit_lists
from env_server.specs.agreement_checks import agreement_hits
from env_server.specs.air_checks import air_hits
from env_server.specs.audit_checks import (
    CheckKind,
    Finding,
    Hit,
    canonical,
    clock_hits,
    collection_rows,
    fallback_hits,
    first_difference,
    invariant_hits,
    lorem_exempt,
    lorem_hits,
    row_ids,
    schema_enums,
    vocabulary_texts,
    walk_strings,
)
from env_server.specs.audit_echo import echo_hits
from env_server.specs.audit_imported import imported_hits
from env_server.specs.audit_keys import emitted_id_hits, keyed_read_hits
from env_server.specs.audit_numeric import numeric_hits
from env_server.specs.audit_shapes import shape_hits
from env_server.specs.audit_text import text_checks
from env_server.specs.content_checks import content_hits
from env_server.specs.domain_checks import domain_hits
from env_server.specs.email_checks import email_hits
from env_server.specs.entry_checks import entry_hits
from env_server.specs.fact_checks import fact_hits
from env_server.specs.format_checks import format_hits
from env_server.specs.geo_checks import geo_hits, is_reverse
from env_server.specs.headline_checks import headline_hits
from env_server.specs.hebcal_checks import hebcal_hits
from env_server.specs.id_checks import id_format_hits
from env_server.specs.lookup_checks import lookup_hits
from env_server.specs.media_checks import media_hits
from env_server.specs.money_checks import public_money_hits
from env_server.specs.performer_checks import performer_hits
from env_server.specs.provider_checks import provider_hits
from env_server.specs.record_checks import record_hits
from env_server.specs.route_checks import route_hits
from env_server.specs.samples import sample_arguments
from env_server.specs.sea_checks import sea_hits
from env_server.specs.time_checks import time_hits
from env_server.specs.world_checks import world_hits
from state import Database, ErrorKind
from state.store import Durability

logger = logging.getLogger(__name__)

REPEATABLE = frozenset({Operation.READ, Operation.SEARCH, Operation.LIST, Operation.ACTION})
IDS_PER_SEARCH = 2


class AuditUsageError(ToolenvError):
    """The audit was asked for tools the catalog does not have."""


class AuditReport(BaseModel):
    """The audit of a set of tools: every finding, and counts per check kind."""

    model_config = ConfigDict(extra="forbid")

    seed: int
    today: dt.date
    tools_audited: int
    tools: list[str]
    findings: list[Finding]
    totals: dict[str, int]

    @property
    def failed(self) -> bool:
        return bool(self.findings)

    def by_tool(self) -> dict[str, list[Finding]]:
        grouped: dict[str, list[Finding]] = {}
        for finding in self.findings:
            grouped.setdefault(finding.tool, []).append(finding)
        return grouped


def select_tools(catalog: Catalog, names: list[str] | None = None, sample: int | None = None,
                 seed: int = 0) -> list[str]:
    """The tools to audit, sorted: ``names`` (or all), then a seeded sample of ``sample`` of them."""
    unknown = [n for n in names or [] if n not in catalog]
    if unknown:
        hints = []
        for name in unknown:
            close = catalog.suggest(name)
            hints.append(f"'{name}'" + (f" (did you mean {', '.join(close)}?)" if close else ""))
        raise AuditUsageError(f"no tool named {'; '.join(hints)}")
    pool = sorted(dict.fromkeys(names)) if names else sorted(catalog.tools)
    if sample is not None and sample < len(pool):
        pool = sorted(random.Random(seed).sample(pool, sample))
    return pool


def audit_catalog(
    catalog: Catalog,
    tools: list[str] | None = None,
    *,
    seed: int = 0,
    on_tool: Callable[[str], None] | None = None,
    quiet: bool = False,
) -> AuditReport:
    """Audit ``tools`` (default: all) of ``catalog``; ``on_tool`` is told after each tool.

    ``quiet`` keeps simulator tracebacks off the log handlers (they are still summarized in
    the ``infra_error`` findings).
    """
    names = select_tools(catalog, tools)
    settings = ServerSettings(seed=seed, durability=Durability.EPHEMERAL)
    db = Database()
    auditor = _Auditor(catalog, ToolEnvironment(catalog, db, settings), seed)
    findings: list[Finding] = []
    try:
        with _captured_errors(quiet) as capture:
            auditor.capture = capture
            for index, name in enumerate(names):
                findings += auditor.audit(catalog.tools[name], index)
                if on_tool is not None:
                    on_tool(name)
    finally:
        db.close()
    totals = {kind.value: 0 for kind in CheckKind}
    for finding in findings:
        totals[finding.check.value] += 1
    return AuditReport(seed=seed, today=settings.today, tools_audited=len(names), tools=names,
                       findings=findings, totals=totals)


# -- one tool ------------------------------------------------------------------------------


class _Capture(logging.Handler):
    """Remembers the last exception logged, to name it in an ``infra_error`` finding."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.last: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            self.last = f"{type(exc).__name__}: {exc}"


@contextmanager
def _captured_errors(quiet: bool) -> Iterator[_Capture]:
    root = logging.getLogger("env_server")
    capture, propagate = _Capture(), root.propagate
    root.addHandler(capture)
    if quiet:
        root.propagate = False
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.propagate = propagate


@dataclass
class _Call:
    outcome: CallOutcome
    text: str  # canonical JSON of (is_error, message, result), taken at once


class _Auditor:
    def __init__(self, catalog: Catalog, env: ToolEnvironment, seed: int) -> None:
        self.env, self.seed = env, seed
        self.capture = _Capture()
        self.vocabulary = vocabulary_texts(default_facts().vocab) | faker_texts()
        self.sites = default_facts().sites
        self.families: dict[str, list[str]] = {}
        self.readers: dict[tuple[str, str], list[ToolSpec]] = {}
        for spec in catalog.tools.values():
            self.families.setdefault(spec.family, []).append(spec.name)
            if spec.profile.operation is Operation.READ and spec.profile.id_param:
                self.readers.setdefault((spec.family, spec.profile.entity), []).append(spec)

    def audit(self, spec: ToolSpec, index: int) -> list[Finding]:
        """Every finding of one tool; an exception becomes an ``infra_error`` finding."""
        sid = f"audit_{index}"
        found: list[Finding] = []
        try:
            view = self.env.create_session(tools=self.families[spec.family], seed=self.seed, session_id=sid)
            for check, path, detail in self._checks(spec, sid, view.record.today):
                finding = Finding(tool=spec.name, check=check, path=path, detail=detail)
                if finding not in found:
                    found.append(finding)
        except Exception as exc:  # boundary: one broken tool must not stop the audit
            logger.exception("audit of %s failed", spec.name)
            found.append(Finding(tool=spec.name, check=CheckKind.INFRA_ERROR, path="$",
                                 detail=f"audit crashed: {type(exc).__name__}: {exc}"))
        finally:
            self.env.release_session(sid)
        return found

    def _call(self, sid: str, name: str, args: dict[str, Any]) -> _Call:
        self.capture.last = None
        outcome = self.env.call_tool(sid, name, args)
        return _Call(outcome, canonical([outcome.is_error, outcome.message, outcome.result]))

    def _infra(self, call: _Call, name: str, path: str = "$") -> list[tuple[CheckKind, str, str]]:
        if call.outcome.error_kind is not ErrorKind.INFRA_ERROR:
            return []
        return [(CheckKind.INFRA_ERROR, path, f"{name} crashed: {self.capture.last or call.outcome.message}")]

    def _checks(self, spec: ToolSpec, sid: str, today: dt.date) -> Iterator[tuple[CheckKind, str, str]]:
        op = spec.profile.operation
        args = sample_arguments(spec, 0)
        first = self._call(sid, spec.name, args)
        if first.outcome.error_kind is ErrorKind.INVALID_ARGUMENTS:
            args = sample_arguments(spec, 1)
            first = self._call(sid, spec.name, args)
        if first.outcome.error_kind is ErrorKind.INFRA_ERROR:
            yield from self._infra(first, spec.name)
            return
        if op in REPEATABLE:
            again = self._call(sid, spec.name, args)
            yield from self._infra(again, spec.name)
            if again.text != first.text:
                a, b = (c.outcome.result if not c.outcome.is_error else c.outcome.message for c in (first, again))
                yield (CheckKind.NONDETERMINISTIC, first_difference(a, b) or "$",
                       "the same call answered differently the second time")
        result = first.outcome.result
        if first.outcome.is_error or result is None:
            return
        if not lorem_exempt(spec):
            known = self.vocabulary | schema_enums(spec.output_schema) | _argument_texts(args)
            yield from _tag(CheckKind.LOREM, lorem_hits(result, known))
            yield from _tag(CheckKind.FALLBACK, fallback_hits(spec))
            yield from text_checks(spec, result, _argument_texts(args), self.sites)
        yield from _tag(CheckKind.INVARIANT, invariant_hits(result, args))
        yield from _tag(CheckKind.GEO, geo_hits(result, args, today, reverse=is_reverse(spec.name)))
        yield from _tag(CheckKind.AIR, air_hits(spec, result))  # AQI, dominant pollutant, category; points
        yield from _tag(CheckKind.IMPORTED, imported_hits(spec, args, result))
        yield from _tag(CheckKind.NUMERIC, numeric_hits(result, args, spec.profile.entity))
        yield from _tag(CheckKind.NUMERIC, shape_hits(result))  # candles, bid/ask, pages, arc seconds
        yield from _tag(CheckKind.ID_FORMAT, id_format_hits(result, spec.profile.entity or "", _argument_texts(args)))
        yield from _tag(CheckKind.FORMAT, format_hits(spec, result, _argument_texts(args)))
        yield from _tag(CheckKind.DOMAIN, domain_hits(result, args))
        yield from _tag(CheckKind.DOMAIN, provider_hits(spec, args, result))  # CVSS, ports, UV, place searches
        yield from _tag(CheckKind.DOMAIN, media_hits(spec, result, args))  # genres, seasons, tracks (media_checks)
        yield from _tag(CheckKind.DOMAIN, world_hits(spec, args, result, today))  # carbon, named days, coin pairs
        yield from _tag(CheckKind.DOMAIN, content_hits(spec, args, result))  # nutrients, Unix times, verses (content_checks)
        yield from _tag(CheckKind.DOMAIN, entry_hits(spec, result))  # a Margarita's glass, a cocktail list's drinks
        yield from _tag(CheckKind.DOMAIN, performer_hits(spec, result))  # bands, teams, comedians (performer_checks)
        yield from _tag(CheckKind.NUMERIC, public_money_hits(spec, result))  # tenders, awards, charities (money_checks)
        yield from _tag(CheckKind.ECHO, echo_hits(spec, args, result, default_facts().vocab))
        yield from _tag(CheckKind.DOMAIN, headline_hits(spec, args, result))  # issue 14's headline reads
        yield from _tag(CheckKind.DOMAIN, fact_hits(spec, args, result, session_now(today, 0)))  # alerts, surahs, ZIPs
        yield from _tag(CheckKind.DOMAIN, record_hits(spec, args, result, self.vocabulary, today))  # names, languages, phones
        yield from _tag(CheckKind.DOMAIN, sea_hits(result))  # sea states that walk and add up (sea_checks)
        yield from _tag(CheckKind.DOMAIN, route_hits(args, result))  # routes that follow their waypoints (route_checks)
        yield from _tag(CheckKind.DOMAIN, email_hits(result))  # previews that start their bodies (email_checks)
        yield from _tag(CheckKind.DOMAIN, hebcal_hits(result))  # holidays, candles, parashot (hebcal_checks)
        yield from _tag(CheckKind.DOMAIN, lookup_hits(args, result))  # number facts, taxon ranks, UK postcodes
        yield from _tag(CheckKind.DOMAIN, agreement_hits(spec, result))  # issues' states, breeds, museum objects
        yield from _tag(CheckKind.QUESTION, keyed_read_hits(spec, args, result))
        yield from _tag(CheckKind.CLOCK, clock_hits(result, today, created=op is Operation.CREATE,
                                                    current=reports_current(spec),
                                                    stamps=stamp_pattern(spec.name, op)))
        yield from _tag(CheckKind.TIME, time_hits(result, args, today, session_now(today, 0)))
        if op is Operation.CREATE and isinstance(result, dict):
            yield from self._readback(spec, sid, args, result)
        yield from audit_lists.checks(self, spec, sid, args, result)  # searches answer the call; writes round-trip
        rows = collection_rows(spec, result) if op in (Operation.SEARCH, Operation.LIST) else None
        if rows is None:
            return
        if not rows and self._must_find(spec):
            yield CheckKind.EMPTY_FRESH_LIST, f"$.{spec.profile.collection}", self._empty_detail(spec)
        yield from self._id_chain(spec, sid, rows)

    def _must_find(self, spec: ToolSpec) -> bool:
        """Record lists must not come back empty in a fresh world; a list of plain values
        may (a breed with no sub-breeds, a word with no synonyms), as the real API's would."""
        schema = (spec.output_schema.get("properties") or {}).get(spec.profile.collection or "") or {}
        items = schema.get("items") if isinstance(schema, dict) else None
        return self.env.rules.owned(spec.family, spec.profile.entity) or (
            isinstance(items, dict) and items.get("type") == "object")

    def _empty_detail(self, spec: ToolSpec) -> str:
        entity = spec.profile.entity
        if self.env.rules.owned(spec.family, entity):
            return f"no {entity} rows in a fresh session, though the family creates {entity} (a user-owned list)"
        return f"no {entity} results for the sample query in a fresh session"

    def _id_chain(self, spec: ToolSpec, sid: str, rows: list[Any]) -> Iterator[tuple[CheckKind, str, str]]:
        readers = [r for r in self.readers.get((spec.family, spec.profile.entity), []) if r.name != spec.name]
        for path, eid in row_ids(spec, rows, IDS_PER_SEARCH):
            for reader in readers:
                id_param: str = reader.profile.id_param  # type: ignore[assignment]  # readers have one (__init__)
                args = {k: v for k, v in sample_arguments(reader, 0).items() if k != id_param}
                yield from _tag(CheckKind.ID_CHAIN, emitted_id_hits(path, eid, reader))
                args[id_param] = _as_param(eid, reader.input_schema, id_param)
                call = self._call(sid, reader.name, args)
                outcome = call.outcome
                yield from self._infra(call, reader.name, path)
                if not outcome.is_error:
                    continue
                if outcome.error_kind is ErrorKind.NOT_FOUND or "404" in (outcome.message or ""):
                    yield CheckKind.ID_CHAIN, path, f"{reader.name}({id_param}={eid!r}) answers 404: {outcome.message}"
                elif outcome.error_kind is ErrorKind.INVALID_ARGUMENTS:
                    yield CheckKind.ID_CHAIN, path, f"{reader.name} rejects {id_param}={eid!r}: {outcome.message}"


    def _readback(self, spec: ToolSpec, sid: str, sent: dict[str, Any],
                  made: dict[str, Any]) -> Iterator[tuple[CheckKind, str, str]]:
        """A created entity opens in its reader, and every value the create sent reads back."""
        entity = spec.profile.entity
        for reader in self.readers.get((spec.family, entity), [])[:1]:
            id_param: str = reader.profile.id_param  # type: ignore[assignment]  # readers have one (__init__)
            id_field = next((n for n in (spec.profile.id_field, id_param, f"{entity}_id", "id") if n and n in made), None)
            if id_field is None:
                return
            args = {k: v for k, v in sample_arguments(reader, 0).items() if k != id_param}
            args[id_param] = _as_param(made[id_field], reader.input_schema, id_param)
            call = self._call(sid, reader.name, args)
            yield from self._infra(call, reader.name)
            if call.outcome.is_error:
                yield (CheckKind.READBACK, f"$.{id_field}",
                       f"{reader.name} cannot open the created {entity}: {call.outcome.message}")
                return
            read = call.outcome.result if isinstance(call.outcome.result, dict) else {}
            for key, value in sent.items():
                if isinstance(value, (dict, list)):  # a reader may render a sent list its own way
                    continue
                if key != id_param and key in read and read[key] != value:
                    yield (CheckKind.READBACK, f"$.{key}",
                           f"{spec.name} sent {key}={value!r}; {reader.name} reads back {read[key]!r}")


def _argument_texts(args: dict[str, Any]) -> frozenset[str]:
    """The call's own strings, with their sentences and words: an echoed argument (or a
    piece of it, as a text-analysis answer quotes) is the caller's text, not filler."""
    texts = [text for _, _, text in walk_strings(args)]
    pieces = {piece for text in texts for _, piece in (*word_spans(text), *sentence_spans(text))}
    return frozenset(texts) | pieces


def _tag(kind: CheckKind, hits: list[Hit]) -> Iterator[tuple[CheckKind, str, str]]:
    for path, detail in hits:
        yield kind, path, detail


def _as_param(value: Any, schema: dict[str, Any], param: str) -> Any:
    """The id as the reader's parameter type wants it (an agent would pass "42" as 42)."""
    param_schema = (schema.get("properties") or {}).get(param) or {}
    want = param_schema.get("type")
    if want == "integer" and isinstance(value, str):
        # "42", or a resource URL ending in its number (".../people/42/")
        tail = value.rstrip("/").rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else value
    if want == "string" and isinstance(value, int) and not isinstance(value, bool):
        return str(value).zfill(int(param_schema.get("minLength", 0)))  # a CIK is zero-padded
    if want == "string" and isinstance(value, float):
        return str(value)
    return value

"""The audit's search/list and write checks: answers agree with the question.

``question_hits`` judges one search/list result against the call that produced it: the
search term shows in every row, equal-valued filters hold (a ``status`` asked for is each
row's status, a ``category`` is among its categories), ``min_*``/``max_*`` bounds and date
windows hold, the rows are sorted as asked and no more than the limit, and the paging
fields agree (the page asked for, a total no smaller than the rows shown, pages =
ceil(total / per page)). ``probe_arguments`` builds a second, harder call from the schema
(a limit of 2, a sort key the rows carry, an enum filter, a term), since sampled arguments
often leave those out. ``write_round_trip`` creates, updates and deletes through a family's
tools and reads back after each step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from env_server.catalog.models import Operation, ToolSpec
from env_server.session_types import CallOutcome
from env_server.simulators.answer_dates import date_window
from env_server.simulators.answers import (
    QUERY_ARGS,
    filter_misses,
    fits_question,
    search_term,
    shows_term,
    term_words,
)
from env_server.simulators.naming import snake
from env_server.simulators.paging import (
    LIMIT_ARGS,
    PAGE_ARGS,
    SORT_ARGS,
    requested_limit,
    sort_field,
    sort_keys,
    sort_request,
)
from env_server.specs.audit_checks import CheckKind, Hit, collection_rows
from env_server.specs.samples import sample_arguments

PROBE_TERM = "garden"
_TOTALS = ("total", "total_results", "total_count", "total_hits", "total_items", "total_records", "total_result_count",
           "num_found", "nb_hits", "number_of_results", "result_total")
_PAGES = ("total_pages", "page_count", "num_pages")


def question_hits(spec: ToolSpec, args: dict[str, Any], result: Any) -> list[Hit]:
    """Where a search/list answer disagrees with the call that asked it."""
    rows = collection_rows(spec, result)
    if rows is None:
        return []
    coll = f"$.{spec.profile.collection}"
    hits: list[Hit] = []
    limit = requested_limit(args)
    if limit is not None and len(rows) > limit:
        hits.append((coll, f"{len(rows)} rows for a limit of {limit}"))
    term = search_term(args)
    words = term_words(term) if term else []
    lo, hi = date_window(args)
    # A filter named like the rows' own id names their parent (an account's statuses).
    own_ids = {spec.profile.id_field, f"{spec.profile.entity}_id", "id"}
    judged = {k: v for k, v in args.items() if k not in own_ids}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        if words and not shows_term(row, words, _item_props(spec)):
            hits.append((f"{coll}[{i}]", f"the row does not show the search term {term!r}"))
        if (lo is not None or hi is not None) and not fits_question(row, {k: v for k, v in args.items()
                                                                          if snake(k) not in QUERY_ARGS}):
            hits.append((f"{coll}[{i}]", f"the row's date lies outside the requested window {lo}..{hi}"))
        hits += [(f"{coll}[{i}].{key}", detail) for key, detail in filter_misses(row, judged, _item_props(spec))]
    hits += _sort_misses(rows, args, coll)
    if isinstance(result, dict):
        hits += _page_misses(result, args, len(rows))
    return hits


def _item_props(spec: ToolSpec) -> dict[str, Any]:
    coll = (spec.output_schema.get("properties") or {}).get(spec.profile.collection or "")
    items = coll.get("items") if isinstance(coll, dict) else None
    props = items.get("properties") if isinstance(items, dict) else None
    return props if isinstance(props, dict) else {}


def _sort_misses(rows: list[Any], args: dict[str, Any], coll: str) -> list[Hit]:
    asked = sort_request(args)
    if asked is None or len(rows) < 2:
        return []
    field = sort_field(rows, asked[0])
    if field is None:
        return []
    keyed = sort_keys(rows, field)
    if keyed is None:
        return []
    values = [r[field] for r in rows]
    up, down = keyed == sorted(keyed), keyed == sorted(keyed, reverse=True)
    desc = asked[1]
    if desc is True and not down or desc is False and not up or desc is None and not (up or down):
        order = "descending" if desc else "ascending" if desc is False else "sorted"
        return [(coll, f"rows are not {order} by {field} as sort {asked[0]!r} asks: {values}")]
    return []


def _page_misses(result: dict[str, Any], args: dict[str, Any], shown: int) -> list[Hit]:
    ints = {snake(k): (k, v) for k, v in result.items() if type(v) is int}
    page = next((v for k, v in args.items() if snake(k) in PAGE_ARGS and type(v) is int and v >= 1), 1)
    hits: list[Hit] = [(f"$.{ints[n][0]}", f"page {ints[n][1]} answers a call for page {page}")
                       for n in ("page", "current_page") if n in ints and ints[n][1] != page]
    total = next((ints[n] for n in _TOTALS if n in ints), None)
    if total is None:
        return hits
    if total[1] < shown:
        hits.append((f"$.{total[0]}", f"total {total[1]} is smaller than the {shown} rows shown"))
    pages = next((ints[n] for n in _PAGES if n in ints), None)
    per_page = requested_limit(args)
    if pages is not None and per_page and pages[1] != max(page, math.ceil(total[1] / per_page)):
        hits.append((f"$.{pages[0]}", f"{pages[1]} pages for {total[1]} results at {per_page} per page"))
    return hits


# -- a harder call -------------------------------------------------------------------------


def probe_arguments(spec: ToolSpec, args: dict[str, Any], rows: list[Any]) -> dict[str, Any] | None:
    """``args`` plus a limit of 2, a sort key the rows carry, an enum filter and a search term,
    for whichever of these the tool takes; None when it takes none of them."""
    props: dict[str, Any] = spec.input_schema.get("properties") or {}
    probe = dict(args)
    sample = next((r for r in rows if isinstance(r, dict)), {})
    row_fields = {snake(k) for k in sample}
    for key, sub in props.items():
        if isinstance(sub, dict) and key not in args:
            value = _probe_value(snake(key), sub, rows, row_fields)
            if value is not None:
                probe[key] = value
    return probe if probe != args else None


def _probe_value(name: str, sub: dict[str, Any], rows: list[Any], row_fields: set[str]) -> Any:
    enum, typ = sub.get("enum"), sub.get("type")
    if name in LIMIT_ARGS and typ == "integer" and sub.get("minimum", 1) <= 2 <= sub.get("maximum", 2):
        return 2
    if name in QUERY_ARGS and typ == "string" and not enum:
        return PROBE_TERM
    if name in SORT_ARGS and typ == "string":
        return _probe_sort(enum, rows)
    if isinstance(enum, list) and len(enum) > 1 and name in row_fields:
        return enum[1]
    return None


def _probe_sort(enum: Any, rows: list[Any]) -> str | None:
    """A sort key the rows carry: from the parameter's enum, else the rows' first number."""
    sample = next((r for r in rows if isinstance(r, dict)), {})
    keys = [e for e in enum if isinstance(e, str)] if isinstance(enum, list) else [
        k for k, v in sample.items() if isinstance(v, (int, float)) and not isinstance(v, bool)][:1]
    return next((k for k in keys if sort_field(rows, snake(k.lstrip("-"))) is not None), None)


# -- writes --------------------------------------------------------------------------------


Call = Callable[[str, dict[str, Any]], CallOutcome]


def write_round_trip(spec: ToolSpec, family: list[ToolSpec], sent: dict[str, Any], made: dict[str, Any],
                     call: Call, sample: Callable[[ToolSpec], dict[str, Any]]) -> list[Hit]:
    """After ``spec`` created ``made``: an update changes what it sends and nothing else, a
    delete makes the next read a 404 and takes the row out of the family's lists."""
    entity, hits = spec.profile.entity, []
    reader = _tool(family, entity, Operation.READ)
    if reader is None or not reader.profile.id_param:
        return []
    eid = next((made[n] for n in (spec.profile.id_field, reader.profile.id_param, f"{entity}_id", "id")
                if n and n in made), None)
    if eid is None:
        return []

    def read() -> CallOutcome:
        return call(reader.name, {**_without(sample(reader), reader.profile.id_param),
                                  reader.profile.id_param: eid})  # type: ignore[dict-item]

    before = read()
    updater = _tool(family, entity, Operation.UPDATE)
    if updater is not None and updater.profile.id_param and not before.is_error:
        hits += _update_hits(updater, eid, before, read, call, sample)
    deleter = _tool(family, entity, Operation.DELETE)
    if deleter is not None and deleter.profile.id_param:
        done = call(deleter.name, {**_without(sample(deleter), deleter.profile.id_param),
                                   deleter.profile.id_param: eid})
        after = read()
        if not done.is_error and not after.is_error and not _shows_closed(after.result, before.result):
            hits.append(("$", f"{reader.name} still opens {entity} {eid!r} after {deleter.name}"))
    return hits


def _update_hits(updater: ToolSpec, eid: Any, before: CallOutcome, read: Callable[[], CallOutcome], call: Call,
                 sample: Callable[[ToolSpec], dict[str, Any]]) -> list[Hit]:
    id_param: str = updater.profile.id_param  # type: ignore[assignment]  # checked by the caller
    changes = {k: v for k, v in sample(updater).items() if k != id_param and isinstance(v, (str, int, float))}
    done = call(updater.name, {**changes, id_param: eid})
    if done.is_error:
        return []
    after = read()
    old = before.result if isinstance(before.result, dict) else {}
    new = after.result if isinstance(after.result, dict) else {}
    hits: list[Hit] = []
    for key, value in changes.items():
        if key in new and new[key] != value:
            hits.append((f"$.{key}", f"{updater.name} sent {key}={value!r}; the next read shows {new[key]!r}"))
    for key, value in old.items():
        if (key not in changes and key in new and new[key] != value and not _stamp_field(key)
                and not isinstance(value, (dict, list))):
            hits.append((f"$.{key}", f"{updater.name} did not send {key}, yet it changed from {value!r} to "
                                     f"{new[key]!r}"))
    return hits


_CLOSED_WORDS = ("cancel", "archiv", "closed", "revoked", "void", "deleted", "inactive", "refund", "expired",
                 "disabled", "rejected", "removed")


def _shows_closed(after: Any, before: Any) -> bool:
    """A read after a cancel/archive/void shows it: a status, flag or stamp that says so, or
    at least an answer that changed (the reader may have no field for it)."""
    if not isinstance(after, dict):
        return True
    for key, value in after.items():
        text = f"{snake(key)}={value}".lower() if not isinstance(value, (dict, list)) else ""
        if isinstance(value, str) and any(w in value.lower() for w in _CLOSED_WORDS):
            return True
        if any(w in text for w in _CLOSED_WORDS) and value not in (False, None, ""):
            return True
    return after != before


def _stamp_field(key: str) -> bool:
    name = snake(key)
    return any(w in name for w in ("updated", "modified", "edited", "revision", "version", "etag", "change_key"))


def _tool(family: list[ToolSpec], entity: str, op: Operation) -> ToolSpec | None:
    return next((s for s in family if s.profile.entity == entity and s.profile.operation is op), None)


def _without(args: dict[str, Any], key: str | None) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k != key}


# -- the audit's entry -----------------------------------------------------------------------


def checks(auditor: Any, spec: ToolSpec, sid: str, args: dict[str, Any],
           result: Any) -> Iterator[tuple[CheckKind, str, str]]:
    """This module's findings for one audited call (``audit._Auditor`` runs them)."""
    op = spec.profile.operation

    def call(name: str, sent: dict[str, Any]) -> CallOutcome:
        outcome: CallOutcome = auditor._call(sid, name, sent).outcome
        return outcome

    if op in (Operation.SEARCH, Operation.LIST):
        for path, detail in question_hits(spec, args, result):
            yield CheckKind.QUESTION, path, detail
        probe = probe_arguments(spec, args, collection_rows(spec, result) or [])
        if probe is not None:
            answer = call(spec.name, probe)
            if not answer.is_error:
                for path, detail in question_hits(spec, probe, answer.result):
                    yield CheckKind.QUESTION, path, f"{detail} (probe {probe})"
    elif op is Operation.CREATE and isinstance(result, dict):
        family = [auditor.env.catalog.tools[n] for n in auditor.families[spec.family]]
        for path, detail in write_round_trip(spec, family, args, result, call, lambda s: sample_arguments(s, 0)):
            yield CheckKind.READBACK, path, detail

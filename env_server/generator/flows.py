"""Which tools of a family play which part, read from the catalog's ToolSpec profiles.

A family supports the generator's flows when its profiles show

* a **search** (or list) tool over an entity ``E`` with a ``collection`` of results;
* a **read** tool over ``E`` with an ``id_param``;
* a **create** tool whose required parameters include ``E``'s id (the read's ``id_param``
  or the search items' id field): "book the second show", "rate that movie";
* a **delete** tool over the created entity with an ``id_param`` that takes the id the
  create call returns (its profile ``id_field``, else ``id``).

:func:`supported_families` lists every catalog family with this shape; the generator uses
the ones that also have a hand-written phrase pack (``packs.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from env_server.catalog import Catalog, Operation, ToolSpec
from env_server.errors import ToolenvError


class GeneratorError(ToolenvError):
    """The generator cannot build a scenario with the requested settings or catalog."""


@dataclass(frozen=True)
class Flow:
    """The tools of one family and the field names that link them."""

    family: str
    tools: tuple[str, ...]  # every tool of the family, offered to the agent
    search: str
    collection: str
    item_id: str  # id field of a search result item
    read: str
    read_id: str  # the read tool's id parameter
    read_id_field: str  # id field of the read result
    create: str
    create_ref: str  # the create parameter that takes the item id
    created_id: str  # id field of the create result
    delete: str
    delete_id: str  # the delete tool's id parameter
    delete_extra: tuple[str, ...] = ()  # required delete parameters copied from the create call


def _required(spec: ToolSpec) -> list[str]:
    return [str(r) for r in spec.input_schema.get("required") or []]


def resolve_flow(catalog: Catalog, family: str) -> Flow | None:
    """The flow of ``family``, or None when its profiles do not have the shape."""
    tools = [t for t in catalog.tools.values() if t.family == family and t.source.value == "native"]
    if not tools:
        return None
    by_op: dict[Operation, list[ToolSpec]] = {}
    for t in tools:
        by_op.setdefault(t.profile.operation, []).append(t)
    for search in by_op.get(Operation.SEARCH, []) + by_op.get(Operation.LIST, []):
        if not search.profile.collection:
            continue
        entity = search.profile.entity
        reads = [r for r in by_op.get(Operation.READ, []) if r.profile.entity == entity and r.profile.id_param]
        for read in reads:
            flow = _complete_flow(family, tools, by_op, search, read)
            if flow is not None:
                return flow
    return None


def _complete_flow(
    family: str, tools: list[ToolSpec], by_op: dict[Operation, list[ToolSpec]], search: ToolSpec, read: ToolSpec
) -> Flow | None:
    """The first create (taking the item id) and delete (of what it creates) joining ``search`` and ``read``."""
    item_id = search.profile.id_field or read.profile.id_field or "id"
    for create in by_op.get(Operation.CREATE, []):
        ref = next((p for p in _required(create) if p in (read.profile.id_param, item_id)), None)
        if ref is None:
            continue
        found = _delete_for(by_op, create)
        if found is None:
            continue
        delete, extra = found
        return Flow(
            family=family,
            tools=tuple(t.name for t in tools),
            search=search.name,
            collection=str(search.profile.collection),
            item_id=item_id,
            read=read.name,
            read_id=str(read.profile.id_param),
            read_id_field=read.profile.id_field or "id",
            create=create.name,
            create_ref=ref,
            created_id=create.profile.id_field or "id",
            delete=delete.name,
            delete_id=str(delete.profile.id_param),
            delete_extra=extra,
        )
    return None


def _delete_for(by_op: dict[Operation, list[ToolSpec]], create: ToolSpec) -> tuple[ToolSpec, tuple[str, ...]] | None:
    """The first delete of ``create``'s entity whose other required parameters the create call holds."""
    for delete in by_op.get(Operation.DELETE, []):
        if delete.profile.entity != create.profile.entity or not delete.profile.id_param:
            continue
        extra = tuple(p for p in _required(delete) if p != delete.profile.id_param)
        if any(p not in _required(create) for p in extra):
            continue
        return delete, extra
    return None


def supported_families(catalog: Catalog) -> list[str]:
    """Every family of the catalog whose profiles support the flows (sorted)."""
    families = sorted({t.family for t in catalog.tools.values() if t.source.value == "native"})
    return [f for f in families if resolve_flow(catalog, f) is not None]

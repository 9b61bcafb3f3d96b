"""Phrase packs: the generator's words and anchors, read from ``tool_specs/generator/*.json``.

The data is ours, written by hand against what the tools really return (see the README
there). ``kinds.json`` holds the *kinds* of values that move through a dialogue (a city, a
date, coordinates, a currency ...): how a user says one, points back at one ("there",
"that day") or answers a clarifying question with one. Every other file holds packs, one
per API family, each with *intents*: one tool call, its arguments written over named slots,
the user's phrasings, the assistant's reply (quoting the result with ``[path]``), what the
result *gives* to later calls (anchors) and chat about it.

Template syntax (checked when the files load, so a bad pack never reaches a session):

* user text: ``{slot.pp}`` (a prepositional phrase: "in Lisbon" / "there" / "") and
  ``{slot.np}`` (a noun phrase: "Lisbon" / "that city"); chat questions use ``{it}``;
* assistant text: ``[path]`` quotes the result (written as ``{{N:path}}`` in the file) and
  ``[path|date]`` writes an ISO date or timestamp as "Saturday, March 14";
* arguments: a string ``"{slot}"`` or ``"{slot.part}"`` is a slot value; anything else is literal.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

PACKS_DIR = Path(str(resources.files("tool_specs") / "generator"))
SLOT_ARG = re.compile(r"^\{(\w+)(?:\.(\w+))?\}$")
QUOTE = re.compile(r"\[([\w.]+)(\|date)?\]")
USER_SLOT = re.compile(r"\{(\w+)(?:\.(pp|np))?\}")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Forms(_Strict):
    """How a value of a kind is said: named outright, pointed at, or left to context."""

    explicit: str = Field(description="With the value: 'in {v}', '{v}'.")
    coref: tuple[str, ...] = Field(min_length=1, description="Pointing back at the previous turn: 'there'.")
    partial: tuple[str, ...] = Field(min_length=1, description="Left to context: '' or 'the city'.")
    seq: tuple[str, ...] = Field(min_length=1, description="Pointing at a result of the same request: 'there'.")


class PoolValue(_Strict):
    say: str = Field(description="What the user says.")
    value: Any = Field(description="The argument value it means.")


class Kind(_Strict):
    """A kind of value: its forms, the values a user may name, and clarification lines."""

    noun: str
    pp: Forms
    np: Forms
    pool: tuple[PoolValue, ...] = Field(default=(), description="Values a user may name (empty: anchors only).")
    generated: Literal["date", "year"] | None = Field(default=None, description="Pool computed from the date.")
    parts: tuple[str, ...] = Field(default=(), description="Parts of a composite value (coordinates).")
    ask: tuple[str, ...] = Field(default=(), description="Clarifying questions for a missing value.")
    answer: tuple[str, ...] = Field(default=(), description="The user's answer; {v} is the value as said.")

    @property
    def nameable(self) -> bool:
        return bool(self.pool) or self.generated is not None

    @model_validator(mode="after")
    def _askable(self) -> Kind:
        if self.nameable and not (self.ask and self.answer):
            raise ValueError(f"kind '{self.noun}': a value the user can name needs 'ask' and 'answer' lines")
        return self


class Give(_Strict):
    """What a result gives to later calls: a value of ``kind`` at ``path`` (or composite ``parts``)."""

    kind: str
    path: str = ""
    parts: dict[str, str] = Field(default_factory=dict)
    as_date: bool = Field(default=False, description="Take the ISO date of a timestamp (a literal in gold).")
    shown: str = Field(default="", description="The path the reply must quote (default: path).")

    @property
    def quoted(self) -> str:
        return self.shown or self.path


class Chat(_Strict):
    user: tuple[str, ...] = Field(min_length=1, description="Uses {it}: the result pointed at.")
    reply: tuple[str, ...] = Field(min_length=1, description="Quotes the result with [path].")


class Thing(_Strict):
    """How a user points at the result of this intent in chat."""

    coref: tuple[str, ...] = Field(min_length=1)
    partial: tuple[str, ...] = Field(min_length=1)
    long: tuple[str, ...] = Field(min_length=1)


class Intent(_Strict):
    name: str
    tool: str
    slots: dict[str, tuple[str, ...]] = Field(description="Slot name -> the kinds it accepts.")
    args: dict[str, Any]
    ask: tuple[str, ...] = Field(min_length=2)
    ask_linked: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="'a+b' (slots given by anchors, sorted) -> phrasings for that case."
    )
    ask_bare: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Slot left out (the assistant must ask) -> phrasings without it."
    )
    reply: tuple[str, ...] = Field(min_length=2)
    gives: tuple[Give, ...] = ()
    thing: Thing
    chat: tuple[Chat, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> Intent:
        used = _arg_slots(self.args)
        if used != set(self.slots):
            raise ValueError(f"{self.name}: args use slots {sorted(used)}, slots are {sorted(self.slots)}")
        for text in (*self.ask, *(t for ts in self.ask_linked.values() for t in ts)):
            _check_user_text(self, text, set(self.slots))
        for slot, texts in self.ask_bare.items():
            if slot not in self.slots:
                raise ValueError(f"{self.name}: ask_bare for unknown slot {slot!r}")
            for text in texts:
                _check_user_text(self, text, set(self.slots) - {slot})
        for text in self.reply:
            missing = [g.quoted for g in self.gives if f"[{g.quoted}]" not in text and f"[{g.quoted}|date]" not in text]
            if missing:
                raise ValueError(f"{self.name}: reply {text!r} does not show {missing} (anchors must be said)")
        return self


class Pack(_Strict):
    family: str
    topic: str = Field(description="A few words on what the family is about ('live shows').")
    intents: tuple[Intent, ...] = Field(min_length=1)


class PackFile(_Strict):
    kinds: dict[str, Kind] = Field(default_factory=dict)
    packs: tuple[Pack, ...] = ()


class Library(_Strict):
    """Every kind and pack, cross-checked."""

    kinds: dict[str, Kind]
    packs: tuple[Pack, ...]

    @model_validator(mode="after")
    def _kinds_known(self) -> Library:
        families = [p.family for p in self.packs]
        if len(families) != len(set(families)):
            raise ValueError("a family has two packs")
        for pack in self.packs:
            for intent in pack.intents:
                kinds = {k for ks in intent.slots.values() for k in ks} | {g.kind for g in intent.gives}
                unknown = kinds - set(self.kinds)
                if unknown:
                    raise ValueError(f"{intent.name}: unknown kinds {sorted(unknown)}")
        return self

    @functools.cached_property
    def by_family(self) -> dict[str, Pack]:
        return {p.family: p for p in self.packs}

    @functools.cached_property
    def links(self) -> frozenset[tuple[str, str]]:
        """(giver, taker) family pairs: see ``anchors.family_links``."""
        from env_server.generator.anchors import compute_links  # anchors reads packs; computed on first use

        return compute_links(self)


def _arg_slots(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {s for v in value.values() for s in _arg_slots(v)}
    if isinstance(value, list):
        return {s for v in value for s in _arg_slots(v)}
    match = SLOT_ARG.match(value) if isinstance(value, str) else None
    return {match.group(1)} if match else set()


def _check_user_text(intent: Intent, text: str, allowed: set[str]) -> None:
    for match in USER_SLOT.finditer(text):
        if match.group(1) not in allowed or match.group(2) is None:
            raise ValueError(f"{intent.name}: {text!r} uses {{{match.group(0)[1:-1]}}} (allowed: slot.pp / slot.np "
                             f"of {sorted(allowed)})")


def load_library(directory: Path = PACKS_DIR) -> Library:
    """Read and check every ``*.json`` file of ``directory``."""
    kinds: dict[str, Kind] = {}
    packs: list[Pack] = []
    for path in sorted(directory.glob("*.json")):
        data = PackFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
        kinds.update(data.kinds)
        packs.extend(data.packs)
    return Library(kinds=kinds, packs=tuple(packs))


@functools.lru_cache(maxsize=1)
def library() -> Library:
    return load_library()

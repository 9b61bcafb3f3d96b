"""Family-independent sentence templates (our own wording) and the renderer.

Hidden-intent references come in three kinds, matching the turn subtypes:

* coreference: a pronoun or an ordinal pointing into the previous task ("the second one",
  "it", "that booking");
* partial information: only part of what is needed is said, the rest is earlier in the
  dialogue: an item named by its title alone (its id is in an earlier result), or a new
  search value with the action left out ("What about Porto?");
* long range: the missing piece comes from the first task, three tasks back ("the third
  show from your very first search").
"""

from __future__ import annotations

import random
import re
from typing import Any

ORDINALS = ("first", "second", "third", "fourth", "fifth")

ITEM_COREF = ("the {ord} one", "the {ord} {noun} on that list", "the {ord} of those", "number {num} on that list")
ITEM_FOCUS = ("it", "that one", "that {noun}", "the same {noun}")
ITEM_PARTIAL = ('"{label}"', 'the {noun} "{label}"', 'the one called "{label}"')
ITEM_LONG = ("the {ord} {noun} from your very first search", "the {ord} of the {nouns} {scope} you found at the start",
             "the {ord} result from when I first asked about {nouns} {scope}")

PAIR_COREF: tuple[str, ...] = ("the {oa} and {ob} ones", "numbers {na} and {nb} on that list", "the {oa} and the {ob} of those")
PAIR_PARTIAL: tuple[str, ...] = ('"{la}" and "{lb}"', 'the {nouns} "{la}" and "{lb}"')
PAIR_LONG: tuple[str, ...] = ("the {oa} and {ob} {nouns} from your very first search", "the {oa} and {ob} results {scope} from the start")

CREATED_COREF: tuple[str, ...] = ("that {created_noun}", "the {created_noun} you just made", "the {created_noun} from a moment ago")
CREATED_PARTIAL: tuple[str, ...] = ('the {created_noun} for "{label}"', 'my {created_noun} for "{label}"')

READ = ("Tell me more about {it}.", "What are the details on {it}?", "Pull up the full record for {it}.",
        "Can you open {it} and give me the details?", "I'd like the details of {it}.", "Show me everything about {it}.")
READ_PAIR = ("Compare {both} for me.", "Give me the details of {both}.", "Open {both} side by side.",
             "I can't decide between {both}. Show me both in full.")

SEARCH_COREF = ("Do the same {scope}.", "Run that search again, {scope} this time.", "Same thing {scope}, please.")
SEARCH_LONG = ("Repeat my very first search, but {scope}.", "Back to my first question: same search, {scope} this time.",
               "Like at the start, look for {nouns}, only {scope} now.")
PAIR_SEARCH_FIRST = ("Search {nouns} {s1} and {s2}.", "I'm torn between two options: look up {nouns} {s1} and {s2}.",
                     "Check {nouns} {s1} and also {s2} for me.", "Compare what {nouns} you find {s1} and {s2}.")
PAIR_SEARCH_PARTIAL: tuple[str, ...] = ("And {s1} and {s2}?", "Now both {s1} and {s2}.", "What about {s1} and {s2}?")
PAIR_SEARCH_COREF: tuple[str, ...] = ("Do the same {s1} and {s2}.", "Run that again {s1} and {s2}.")
PAIR_SEARCH_LONG: tuple[str, ...] = ("Repeat my very first search {s1} and {s2}.", "Like at the start, search {s1} and {s2}.")

READ_THEN = ("Open {it} first.", "Check the details of {it}.", "Look at {it} in full first.",
             "Pull up {it} again.")
THEN_READ = ("Then give me the details of the {ord} one.", "Open the {ord} result and tell me more.",
             "After that, pull up the {ord} hit in full.")
THEN_READ_PAIR = ("Then compare the {oa} and {ob} results.", "Then show me the {oa} and {ob} ones in full.",
                  "Open the {oa} and {ob} hits too.")
FIRST_RESULT = ("the first result", "the top hit", "whatever comes up first")

# Optional greeting before the first task's message ("" keeps it bare).
GREETINGS = ("", "", "", "Hi! ", "Hello! ", "Hey there. ", "Quick question. ", "Hi, hope you're well. ",
             "Good day! ", "Right, ")
VAGUE_REPLIES = ("Whatever you think is best.", "Hmm, I'm not sure yet.", "Just the usual, I guess.",
                 "You choose.", "Does it matter?")
ASK_AGAIN = ("I still need {missing} before I can go ahead.", "Sorry, I can't guess that: please tell me {missing}.",
             "To do this I need {missing}. What should I use?")

SAY_SEARCH = ('I found {n} {nouns} {scope}. Top results: {labels}.', 'Here are {nouns} {scope}: {labels}.')
SAY_READ = ('Here are the details of "{label}".', 'Full record of "{label}" below.')

_LEFTOVER = re.compile(r"[{}]")


class PhraseError(ValueError):
    """A template was rendered with a missing slot (a bug in a template, never user input)."""


def render(template: str, sentence: bool = True, **slots: Any) -> str:
    """Fill ``template``; a slot left unfilled or a stray brace raises ``PhraseError``.

    A sentence gets its first letter capitalized; a fragment (``sentence=False``) does not.
    """
    try:
        text = template.format_map({k: v for k, v in slots.items()})
    except (KeyError, IndexError) as exc:
        raise PhraseError(f"template {template!r} needs slot {exc}") from None
    if _LEFTOVER.search(text):
        raise PhraseError(f"brace left in {text!r}")
    text = re.sub(r"\s+", " ", text).strip()
    return text[:1].upper() + text[1:] if sentence else text


def pick(rng: random.Random, options: tuple[str, ...]) -> str:
    return options[rng.randrange(len(options))]


def join_names(names: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def humanize(param: str) -> str:
    """'customer_email' -> 'customer email', 'textOriginal' -> 'text original'."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", param).replace("_", " ")
    return spaced.lower()

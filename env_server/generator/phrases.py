"""Family-independent words (our own): greetings, connectives, lead-ins, and the renderer.

The per-family words live in ``tool_specs/generator`` (``packs.py``). What is here joins
them into turns: how a second request is attached to the first ("Also, ...", "Once you
have that, ..."), how a later turn opens for each hidden-intent subtype, and how dates
are written ("Saturday, March 14").
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

GREETINGS = ("", "", "", "Hi! ", "Hello! ", "Hey there. ", "Quick question. ", "Hi, hope you're well. ",
             "Good morning! ", "Right, ")
# A second request asked alongside the first (parallel calls).
ALSO = ("Also, ", "And ", "While you're at it, ", "On top of that, ", "Oh, and ")
# A request that needs the result of the first one (sequential calls).
THEN = ("Once you have that, ", "Then, ", "After that, ", "When you've found it, ", "And based on that, ")
# How a later turn opens, per subtype.
LEAD = {
    "coref": ("", "", "Great. ", "Thanks! ", "Nice. ", "OK, ", "Perfect. "),
    "partial": ("", "", "Good to know. ", "Alright. ", "Hmm, ", "Right. "),
    "long": ("Going back to my first question: ", "Back to what we started with: ",
             "About the first thing I asked, ", "Thinking again about my first question: "),
}
# The same request again with one value changed, the action left to context (partial information).
AGAIN = {
    "partial": ("What about {np}?", "And {pp}?", "How about {np}?"),
    "coref": ("Now do the same {pp}.", "Same again {pp}, please.", "Can you check that {pp} too?"),
    "long": ("What about {np}?", "Do the same {pp}, please.", "And {pp}?"),
}
# The same request again for a value the user has not said yet (the assistant must ask).
AGAIN_BARE = ("Can you do the same for another {noun}?", "Now check that for a different {noun}, please.",
              "Same again, but for another {noun}.", "Let's try that with a different {noun}.")
VAGUE_REPLIES = ("Whatever you think is best.", "Hmm, I'm not sure yet.", "Just the usual, I guess.",
                 "You choose.", "Does it matter?")
ASK_AGAIN = ("I still need the {noun} before I can go ahead.", "Sorry, I can't guess that: please tell me the {noun}.",
             "To do this I need the {noun}. What should I use?")

_LEFTOVER = re.compile(r"[{}\[\]]")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


class PhraseError(ValueError):
    """A template was rendered with a missing slot (a bug in a template, never user input)."""


def render(template: str, sentence: bool = True, **slots: Any) -> str:
    """Fill ``template``; a slot left unfilled or a stray brace raises ``PhraseError``.

    Spaces are tidied (doubles, before punctuation). A sentence gets its first letter
    capitalized; a fragment (``sentence=False``) does not.
    """
    try:
        text = template.format_map(slots)
    except (KeyError, IndexError, AttributeError) as exc:
        raise PhraseError(f"template {template!r} needs slot {exc}") from None
    if _LEFTOVER.search(text):
        raise PhraseError(f"brace left in {text!r}")
    return tidy(text, sentence)


def tidy(text: str, sentence: bool = True) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([?.,!:;])", r"\1", text)
    text = re.sub(r",([?.!])", r"\1", text)
    return text[:1].upper() + text[1:] if sentence else text


def pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    return options[rng.randrange(len(options))]


def attach(lead: str, sentence: str) -> str:
    """``lead`` + ``sentence``, lowering the sentence's first letter unless the lead ends a sentence."""
    if lead.strip() and not lead.rstrip().endswith((".", "!", "?")) and not sentence.startswith(("I ", "I'")):
        sentence = sentence[:1].lower() + sentence[1:]
    return lead + sentence


def natural_date(value: Any) -> str:
    """'2026-03-14' or '2026-03-14T12:00:00Z' -> 'Saturday, March 14'; other values unchanged."""
    day = iso_date(value)
    if day is None:
        return str(value)
    return f"{_WEEKDAYS[day.weekday()]}, {_MONTHS[day.month - 1]} {day.day}"


def iso_date(value: Any) -> dt.date | None:
    if not isinstance(value, str) or not re.match(r"^\d{4}-\d{2}-\d{2}", value):
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


def spoken_dates(today: dt.date) -> list[tuple[str, str, dt.date]]:
    """Days a user may name, as (noun phrase, prepositional phrase, date): tomorrow, weekdays, month days."""
    out = [("tomorrow", "tomorrow", today + dt.timedelta(days=1))]
    for ahead in range(2, 7):
        day = today + dt.timedelta(days=ahead)
        out.append((_WEEKDAYS[day.weekday()], f"on {_WEEKDAYS[day.weekday()]}", day))
    for ahead in (8, 10, 12, 15, 19, 23, 27):
        day = today + dt.timedelta(days=ahead)
        said = f"{_MONTHS[day.month - 1]} {day.day}"
        out.append((said, f"on {said}", day))
    return out


def join_names(names: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]

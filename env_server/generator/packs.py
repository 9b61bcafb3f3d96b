"""Curated API families and the phrase packs we wrote for them.

A pack holds only *words*: nouns, value pools and sentence templates for one API family.
Which tool plays which part (search, read, create, undo) is not written here; it is read
from the catalog's ToolSpec profiles by :func:`env_server.generator.flows.resolve_flow`, so a
pack works as long as its family keeps a search -> read -> create -> delete shape.

Template placeholders (filled by ``phrases.render``; any leftover brace is an error):
``{q}`` a search value, ``{scope}`` the pack's scope phrase for a value, ``{it}`` a
reference to an item or a created record, ``{extra}`` the create details, ``{label}`` an
item's display name, ``{id}`` a created record's id, ``{value}`` a fact value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# (arguments, phrase used in a request, phrase used when answering a clarification)
Extras = tuple[dict[str, Any], str, str]

FIRST_NAMES = ("Ines", "Tomas", "Mei", "Kofi", "Lena", "Ravi", "Sofia", "Jonas", "Amara", "Hugo",
               "Noor", "Elif", "Mateo", "Yuki", "Freya", "Diego")
LAST_NAMES = ("Marques", "Okafor", "Lindqvist", "Haddad", "Novak", "Fernandes", "Brennan", "Takeda",
              "Moreau", "Kowalski", "Abara", "Sato")


def _person(rng: random.Random) -> tuple[str, str]:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    domain = rng.choice(("example.com", "mail.example.org", "example.net"))
    return f"{first} {last}", f"{first.lower()}.{last.lower()}@{domain}"


def _tickets(rng: random.Random) -> Extras:
    quantity = rng.randint(1, 4)
    name, email = _person(rng)
    seats = "one ticket" if quantity == 1 else f"{quantity} tickets"
    args = {"quantity": quantity, "customer_name": name, "customer_email": email}
    request = rng.choice((f"{seats} under {name}, {email}", f"{seats} for {name} ({email})",
                          f"{seats}; the name is {name} and the email {email}"))
    reply = rng.choice((f"{seats.capitalize()}, for {name}, {email}.", f"Make it {seats}. {name}, {email}.",
                        f"{name}, email {email}, and {seats} please."))
    return args, request, reply


def _rating(rng: random.Random) -> Extras:
    value = rng.choice((5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0))
    shown = f"{value:g}"
    return ({"value": value}, rng.choice((f"a {shown} out of 10", f"{shown}/10", f"a score of {shown}")),
            rng.choice((f"Give it {shown}.", f"{shown} out of 10.", f"Let's say {shown}.")))


def _comment(rng: random.Random) -> Extras:
    text = rng.choice(("Great pacing, thanks for sharing!", "This helped me a lot, cheers.",
                       "Loved the part in the middle.", "Clear and to the point, well done.",
                       "Saving this one for later, really useful.", "The sound mix is lovely here."))
    return ({"textOriginal": text}, rng.choice((f'the comment "{text}"', f'a comment saying "{text}"')),
            rng.choice((f'Write: "{text}"', f'Post "{text}"')))


def _quantity(rng: random.Random) -> Extras:
    quantity = rng.randint(1, 3)
    pieces = "just one" if quantity == 1 else f"{quantity} pieces"
    return ({"quantity": quantity}, rng.choice((pieces, f"quantity {quantity}")), f"{pieces.capitalize()}, please.")


@dataclass(frozen=True)
class Fact:
    """A field of a result item the user may ask about in a Chat task."""

    field: str
    question: str  # uses {it}
    answer: str  # uses {label} and {value}


@dataclass(frozen=True)
class Pack:
    family: str
    noun: str
    nouns: str
    created_noun: str
    label_field: str
    query_param: str
    queries: tuple[str, ...]
    find: tuple[str, ...]
    scope: str
    again: tuple[str, ...]
    create: tuple[str, ...]
    create_bare: tuple[str, ...]
    done_create: tuple[str, ...]
    undo: tuple[str, ...]
    done_undo: tuple[str, ...]
    facts: tuple[Fact, ...]
    extras: Callable[[random.Random], Extras] | None = None
    extras_required: bool = False  # the create call cannot run without the extras (Clarify material)
    ask_create: str = ""
    find_bare: tuple[str, ...] = ()
    ask_find: str = ""
    reply_find: tuple[str, ...] = ()
    search_defaults: dict[str, Any] = field(default_factory=dict)


PACKS: tuple[Pack, ...] = (
    Pack(
        family="ticketmaster",
        noun="show", nouns="shows", created_noun="booking", label_field="title",
        query_param="city",
        queries=("Lisbon", "Porto", "Seville", "Lyon", "Ghent", "Bologna", "Krakow", "Valencia", "Leeds",
                 "Rotterdam", "Graz", "Tartu"),
        find=("What shows are on in {q}?", "Any live shows coming up in {q}?",
              "I'll be in {q} soon. Which shows could I catch there?", "Find me some live events in {q}, please.",
              "Can you check what's playing in {q}?"),
        scope="in {q}",
        again=("What about {q}?", "And in {q}?", "How does {q} look?", "Now try {q}."),
        create=("Book {it} for me: {extra}.", "Please get {extra} for {it}.", "Reserve {it}, {extra}."),
        create_bare=("Book {it} for me.", "Let's get tickets for {it}.", "I'd like to go to {it}. Book it."),
        done_create=("Booked {label}. Your reference is {id}.", "You're in: booking {id} for {label}."),
        undo=("Plans changed, cancel {it}.", "Please cancel {it}.", "Drop {it}, I can't make it."),
        done_undo=("Booking {id} is cancelled.", "Done, {id} has been cancelled."),
        facts=(Fact("venue", "Where was {it} playing again?", "{label} is at {value}."),
               Fact("date", "Remind me when {it} takes place.", "{label} is on {value}."),
               Fact("price", "How much were tickets for {it}?", "Tickets for {label} start at {value}.")),
        extras=_tickets, extras_required=True,
        ask_create="How many tickets do you need, and under which name and email should I book them?",
        find_bare=("Are there any good shows around?", "Find me something to see this week.",
                   "I want to catch a live show. What's on?"),
        ask_find="Which city should I look in?",
        reply_find=("In {q}.", "Look in {q}, please.", "{q}, I'm staying there."),
    ),
    Pack(
        family="tmdb",
        noun="movie", nouns="movies", created_noun="rating", label_field="title",
        query_param="query",
        queries=("heist", "lighthouse", "time loop", "submarine", "desert", "chess", "orchestra", "volcano",
                 "night train", "robot", "island", "detective"),
        find=("Search for movies about {q}.", "What films come up for '{q}'?", "Find me a few movies with {q} in them.",
              "I'm in the mood for something about {q}. What movies are there?"),
        scope="for '{q}'",
        again=("What about '{q}'?", "Now look up '{q}'.", "Try '{q}' instead.", "And for '{q}'?"),
        create=("Rate {it} {extra}.", "Give {it} {extra} on my account.", "I watched {it}: log {extra} for it."),
        create_bare=("Rate {it} for me.", "I want to rate {it}."),
        done_create=("Saved your rating for {label}.", "{label} is rated now."),
        undo=("Remove {it}, I changed my mind.", "Please delete {it}.", "Take back {it}."),
        done_undo=("Your rating for movie {id} is gone.", "Deleted the rating of movie {id}."),
        facts=(Fact("release_date", "When did {it} come out?", "{label} was released on {value}."),
               Fact("vote_average", "What was the average score of {it}?", "{label} averages {value}.")),
        extras=_rating, extras_required=True,
        ask_create="What score from 1 to 10 would you like to give it?",
        find_bare=("Find me a movie to watch tonight.", "Can you search for some films?"),
        ask_find="Sure. What should the movie be about?",
        reply_find=("Something about {q}.", "Search for '{q}'.", "Let's go with {q}."),
    ),
    Pack(
        family="untappd",
        noun="beer", nouns="beers", created_noun="wishlist entry", label_field="beer_name",
        query_param="q",
        queries=("stout", "saison", "sour", "pilsner", "porter", "hazy IPA", "lager", "gose", "barleywine",
                 "wheat beer", "red ale", "dubbel"),
        find=("Look up some {q} beers for me.", "Which {q} beers can you find?", "I feel like a {q}. Search for one.",
              "Show me a few {q} options."),
        scope="for {q}",
        again=("What about {q}?", "And {q}?", "Now check {q}."),
        create=("Put {it} on my wishlist.", "Add {it} to my wishlist.", "Save {it} to my wishlist for later."),
        create_bare=(),
        done_create=("{label} is on your wishlist.", "Added {label} to the wishlist."),
        undo=("Take {it} off the wishlist again.", "Remove {it}, please.", "Actually, drop {it}."),
        done_undo=("Removed beer {id} from your wishlist.", "Beer {id} is off the wishlist."),
        facts=(Fact("beer_abv", "How strong was {it}?", "{label} is {value}% ABV."),
               Fact("brewery_name", "Who brews {it}?", "{label} comes from {value}."),
               Fact("beer_style", "What style is {it} exactly?", "{label} is listed as {value}.")),
        find_bare=("Find me a beer to try.", "Can you look up a beer for the weekend?"),
        ask_find="Happy to. What kind of beer?",
        reply_find=("A {q}.", "Something like a {q}.", "Search {q}."),
    ),
    Pack(
        family="vimeo",
        noun="video", nouns="videos", created_noun="Watch Later entry", label_field="name",
        query_param="query",
        queries=("timelapse", "drone footage", "stop motion", "pottery", "sailing", "street food", "jazz session",
                 "mountain biking", "bookbinding", "aurora", "film grain", "knitting"),
        find=("Find {q} videos on Vimeo.", "Search Vimeo for {q}.", "Any good {q} clips out there?",
              "Show me some {q} videos."),
        scope="for {q}",
        again=("What about {q}?", "Now {q}.", "Try {q} as well.", "And {q}?"),
        create=("Add {it} to Watch Later.", "Save {it} for later.", "Queue {it} in my Watch Later list."),
        create_bare=(),
        done_create=("{label} is in Watch Later.", "Saved {label} for later."),
        undo=("Take {it} out of Watch Later.", "Remove {it} again.", "Never mind {it}, remove it."),
        done_undo=("Video {id} is out of Watch Later.", "Removed video {id}."),
        facts=(Fact("user_name", "Who uploaded {it}?", "{label} was uploaded by {value}."),
               Fact("duration", "How long is {it}?", "{label} runs {value} seconds."),
               Fact("plays", "How many plays does {it} have?", "{label} has {value} plays.")),
        find_bare=("Find me something nice to watch on Vimeo.", "Search Vimeo for me."),
        ask_find="What topic should I search for?",
        reply_find=("{q}.", "Try {q}.", "Let's see {q}."),
    ),
    Pack(
        family="woocommerce",
        noun="product", nouns="products", created_noun="cart item", label_field="name",
        query_param="search",
        queries=("mug", "tote bag", "desk lamp", "notebook", "teapot", "backpack", "candle", "cutting board",
                 "yoga mat", "water bottle", "plant pot", "headphones"),
        find=("Search the shop for a {q}.", "Do you have any {q} products?", "I need a {q}. What's in the store?",
              "Show me the {q} options in the shop."),
        scope="for {q}",
        again=("What about a {q}?", "And {q} products?", "Now look for a {q}."),
        create=("Add {it} to my cart, {extra}.", "Put {it} in the cart, {extra}.", "Cart {it}, {extra}."),
        create_bare=(),
        done_create=("{label} is in your cart (item {id}).", "Added {label} to the cart as {id}."),
        undo=("Take {it} out of the cart.", "Remove {it}.", "I don't need {it} after all, remove it."),
        done_undo=("Cart item {id} removed.", "Removed {id} from the cart."),
        facts=(Fact("price", "What did {it} cost?", "{label} costs {value}."),
               Fact("average_rating", "How is {it} rated?", "{label} has an average rating of {value}."),
               Fact("stock_status", "Is {it} in stock?", "The stock status of {label} is {value}.")),
        extras=_quantity,
    ),
    Pack(
        family="soundcloud",
        noun="track", nouns="tracks", created_noun="like", label_field="title",
        query_param="q",
        queries=("lofi", "ambient", "field recording", "synthwave", "bossa nova", "piano", "drum and bass",
                 "folk", "dub", "chillhop", "choir", "cello"),
        find=("Find some {q} tracks on SoundCloud.", "Search SoundCloud for {q}.", "Any {q} tracks worth hearing?",
              "Play detective: find me {q} music."),
        scope="for {q}",
        again=("What about {q}?", "Now {q}.", "And {q}?"),
        create=("Like {it} for me.", "Give {it} a like.", "Hit like on {it}."),
        create_bare=(),
        done_create=("You now like {label}.", "Liked {label}."),
        undo=("Undo {it}.", "Remove {it}, please.", "Take back {it}."),
        done_undo=("Track {id} is no longer liked.", "Removed the like on track {id}."),
        facts=(Fact("user", "Who posted {it}?", "{label} was posted by {value}."),
               Fact("genre", "What genre is {it} tagged as?", "{label} is tagged {value}."),
               Fact("duration", "How long is {it}?", "{label} lasts {value} seconds.")),
    ),
    Pack(
        family="youtube_data_api",
        noun="video", nouns="videos", created_noun="comment", label_field="title",
        query_param="q",
        queries=("sourdough", "bike repair", "origami", "guitar lesson", "home workout", "watercolor",
                 "camping recipes", "speedcubing", "birdsong", "woodturning", "calligraphy", "tide pools"),
        find=("Search YouTube for {q}.", "Find me YouTube videos about {q}.", "What {q} videos are on YouTube?",
              "I want to learn about {q}. Look on YouTube."),
        scope="for {q}",
        again=("What about {q}?", "And {q}?", "Now search {q}."),
        create=("Post {extra} under {it}.", "Leave {extra} on {it}.", "Comment on {it}: {extra}."),
        create_bare=("Leave a comment on {it} for me.", "I want to comment on {it}."),
        done_create=("Your comment {id} is up on {label}.", "Posted comment {id} on {label}."),
        undo=("Delete {it}.", "Please take down {it}.", "Remove {it} again."),
        done_undo=("Comment {id} is deleted.", "Removed comment {id}."),
        facts=(Fact("channelTitle", "Which channel posted {it}?", "{label} is from {value}."),
               Fact("publishedAt", "When was {it} published?", "{label} was published on {value}.")),
        extras=_comment, extras_required=True,
        ask_create="Sure. What should the comment say?",
        find_bare=("Find me a YouTube video.", "Search YouTube for something for me."),
        ask_find="What topic are you after?",
        reply_find=("{q}.", "Something on {q}.", "Search {q}."),
    ),
)

PACKS_BY_FAMILY: dict[str, Pack] = {p.family: p for p in PACKS}

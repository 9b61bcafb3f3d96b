"""An issue or a change request reads as one: its state, its dates, its text and its link agree.

A GitHub issue that is open has no ``closed_at`` and no ``state_reason`` other than "reopened";
a closed one was closed after it was opened, as completed or not planned. A pull or merge
request is merged only when its state says so, and a merged one is no draft. The body is a
bug report, a feature request or a change description that restates the title (our own
sentences: ``tool_specs/vocab/issue_*.json``, ``change_*.json``), not a note about library
books. Its page is ``https://github.com/{owner}/{repo}/issues/{number}`` for the repository
the call names (``/pull/`` for a pull request; GitLab's ``/-/merge_requests/``, Bitbucket's
``/pull-requests/``). Issue numbers and comment counts have a repository's magnitudes, and
labels are a tracker's ("bug", "needs-triage"), not a blog's tags.

``tracker_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.draws import slugify
from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ISSUE_WORDS = frozenset({"issue", "bug"})
_CHANGE_WORDS = frozenset({"pull", "merge", "pr", "mr", "change"})
_TITLES = ("title", "summary")
_BODIES = ("body", "description")
_LINKS = ("html_url", "web_url")
_NUMBERS = ("number", "iid")
_NUMBER_ARGS = ("issue_number", "pull_number", "merge_request_iid", "issue_iid", "pull_request_id", "number", "iid")
_COMMENTS = ("comments", "comment_count", "comment_total", "comments_count", "user_notes_count")
_OPEN = frozenset({"open", "opened", "locked"})
_MERGED = frozenset({"merged"})
# Title heads of a feature request (the rest are bug reports).
_FEATURE_HEADS = frozenset({"add", "support", "allow", "improve", "provide", "make", "show", "reduce", "feature",
                            "feature:", "enable", "expose", "let", "offer", "introduce", "option", "docs:", "document",
                            "consider", "request:", "implement", "display", "include", "use", "remember", "export"})
_ISSUE_LABELS = ("bug", "enhancement", "documentation", "good first issue", "help wanted", "needs-triage",
                 "question", "regression", "performance", "ui", "backend", "frontend", "api", "security",
                 "accessibility", "duplicate", "wontfix", "priority: high", "priority: low", "area: auth")


def tracker_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes an issue or a pull/merge request record agree with itself, or None."""
    words = set(snake(entity).split("_"))
    change = bool(words & _CHANGE_WORDS)
    if not (change or words & _ISSUE_WORDS) or not any(k in props for k in _TITLES):
        return None
    if not any(k in props for k in ("state", "status", *_BODIES, *_LINKS, *_COMMENTS)):
        return None  # a comic book's issue: a title and a cover date, nothing a tracker has
    nullable = frozenset(k for k, s in props.items() if isinstance(s, dict) and "null" in _types(s))
    states = tuple((props.get("state") or {}).get("enum") or ())

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        _agree_state(record, gen, states, change, nullable, sent)
        _magnitudes(record, gen, sent)
        title = next((v for k in _TITLES if isinstance(v := record.get(k), str) and v), None)
        # A body the caller left out of a new issue stays empty, as the service leaves it.
        body = next((k for k in _BODIES if isinstance(record.get(k), str) and record[k] and k not in sent), None)
        if title is not None and body is not None:
            record[body] = compose_body(title, gen, change, record.get("number") or record.get("iid"))
        _link(record, gen, change)
        _labels(record, props, gen, sent)

    return step


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    typ = schema.get("type")
    return tuple(typ) if isinstance(typ, list) else (str(typ),)


def _moment(value: Any) -> dt.datetime | None:
    if not isinstance(value, str) or len(value) < 19:
        return None
    try:
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.replace(tzinfo=None)


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _unset(record: dict[str, Any], key: str, nullable: frozenset[str]) -> None:
    if key in record:
        if key in nullable:
            record[key] = None
        else:
            del record[key]


def _agree_state(record: dict[str, Any], gen: Generation, states: tuple[str, ...], change: bool,
                 nullable: frozenset[str], sent: Mapping[str, Any]) -> None:
    """Dates and reasons that follow the record's state: open has none, closed and merged do."""
    state = record.get("state")
    if not isinstance(state, str):
        return
    low = state.lower()
    if low in _OPEN:
        for key in ("closed_at", "merged_at", "closed_on", "merged_on"):
            _unset(record, key, nullable)
        if record.get("state_reason") != "reopened":
            _unset(record, "state_reason", nullable)
        return
    closed = _closing_moment(record, gen)
    merged = low in _MERGED or (change and "merged" not in (s.lower() for s in states) and low == "closed"
                                and gen.rng.random() < 0.7)
    _close(record, gen, closed, merged, nullable, sent)


def _closing_moment(record: Mapping[str, Any], gen: Generation) -> dt.datetime:
    """When a closed record was closed: after it was opened, not after its last update or now."""
    created = _moment(record.get("created_at") or record.get("created_on") or record.get("created"))
    updated_key = next((k for k in ("updated_at", "updated_on", "updated") if k in record), None)
    end = min(gen.now, _moment(record.get(updated_key)) or gen.now) if updated_key else gen.now
    start = created if created is not None and created < end else end - dt.timedelta(days=30)
    span = max(1, int((end - start).total_seconds() // 60))
    return start + dt.timedelta(minutes=gen.rng.randint(max(1, span // 4), span))


def _close(record: dict[str, Any], gen: Generation, closed: dt.datetime, merged: bool, nullable: frozenset[str],
           sent: Mapping[str, Any]) -> None:
    """A closed (or merged) record's dates, merge flags and reason."""
    for key in ("closed_at", "closed_on"):
        if key in record and key not in sent:
            record[key] = _stamp(closed)
    for key in ("merged_at", "merged_on"):
        if key in record:
            if merged:
                record[key] = _stamp(closed)
            else:
                _unset(record, key, nullable)
    if merged and isinstance(record.get("draft"), bool):
        record["draft"] = False
    if isinstance(record.get("merged"), bool):
        record["merged"] = merged
    reason = record.get("state_reason")
    if "state_reason" in record and "state_reason" not in sent and reason not in ("completed", "not_planned"):
        record["state_reason"] = "completed" if gen.rng.random() < 0.8 else "not_planned"


def _magnitudes(record: dict[str, Any], gen: Generation, sent: Mapping[str, Any]) -> None:
    """An issue number and a comment count of a repository's size, not an id's."""
    for key in _NUMBERS:
        value = record.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 5000 and key not in sent:
            record[key] = gen.rng.randint(1, 2400)
    for key in _COMMENTS:
        value = record.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 40:
            record[key] = min(int(gen.rng.expovariate(1 / 5)), 40)


def is_feature(title: str) -> bool:
    """Whether an issue's title asks for something new rather than reporting a fault."""
    head = title.split(" ", 1)[0].lower()
    return head in _FEATURE_HEADS


def compose_body(title: str, gen: Generation, change: bool, number: Any = None) -> str:
    """A report that restates its title: an opening line, two details and, often, a closing."""
    vocab = gen.facts.vocab
    if change:
        opening, detail = "change_opening", "change_detail"
    elif is_feature(title):
        opening, detail = "issue_feature_opening", "issue_feature_detail"
    else:
        opening, detail = "issue_bug_opening", "issue_bug_detail"
    first = gen.rng.choice(vocab.get(opening).values).replace("{title}", title.rstrip(" .!?"))
    details = vocab.get(detail).values
    picked = gen.rng.sample(range(len(details)), 2)
    parts = [first, " ".join(details[i] for i in picked)]
    if change and isinstance(number, int) and number > 1 and gen.rng.random() < 0.6:
        parts.append(f"Closes #{gen.rng.randint(1, number - 1)}.")
    elif gen.rng.random() < 0.5:
        parts.append(gen.rng.choice(vocab.get("issue_closing").values))
    return "\n\n".join(parts)


def _link(record: dict[str, Any], gen: Generation, change: bool) -> None:
    """The record's page, on the repository the call names."""
    key = next((k for k in _LINKS if isinstance(record.get(k), str)), None)
    asked = next((v for k in _NUMBER_ARGS if isinstance(v := gen.snaked_args.get(k), int)), None)
    number = asked if asked is not None and gen.scope.is_top else next(
        (v for k in (*_NUMBERS, "id") if isinstance(v := record.get(k), int)), None)
    if key is None or number is None:
        return
    host = "/".join(record[key].split("/")[:3]) if record[key].startswith("http") else "https://github.com"
    path = _repo_path(gen)
    if "gitlab" in host:
        record[key] = f"{host}/{path}/-/{'merge_requests' if change else 'issues'}/{number}"
    elif "bitbucket" in host:
        record[key] = f"{host}/{path}/{'pull-requests' if change else 'issues'}/{number}"
    else:
        record[key] = f"{host}/{path}/{'pull' if change else 'issues'}/{number}"


def relink(item: dict[str, Any], idf: str, scope: Mapping[str, Any] | None = None) -> None:
    """After a row is given its number (``stateful``, ``writes``), its page names that number,
    in the repository the list is scoped by (``owner``/``repo``), when it names one."""
    if idf not in _NUMBERS or not isinstance(number := item.get(idf), int):
        return
    owner, repo = (scope or {}).get("owner"), (scope or {}).get("repo")
    for key in _LINKS:
        link = item.get(key)
        if isinstance(link, str) and (found := _PAGE_RE.match(link)) is not None:
            path = f"{owner}/{repo}" if isinstance(owner, str) and isinstance(repo, str) else found["path"]
            item[key] = f"{found['host']}/{path}/{found['kind']}/{number}"


_PAGE_RE = re.compile(r"^(?P<host>https?://[^/]+)/(?P<path>.+?)/(?P<kind>issues|pull|-/issues|-/merge_requests|"
                      r"pull-requests)/\d+$")


def _repo_path(gen: Generation) -> str:
    """``owner/repo`` from the call (owner and repo, a GitLab project path, a Bitbucket workspace
    and slug), or one drawn for the project id it sends, the same one on every call."""
    sent = gen.snaked_args
    owner = next((str(v) for k in ("owner", "workspace", "namespace") if (v := sent.get(k))), None)
    repo = next((str(v) for k in ("repo", "repo_slug", "repository") if (v := sent.get(k))), None)
    if owner and repo:
        return f"{owner}/{repo}"
    project = str(sent.get("project_id") or sent.get("project") or repo or "")
    if "/" in project or "%2F" in project:
        return project.replace("%2F", "/")
    names, groups = gen.facts.vocab.get("repo_name").values, gen.facts.vocab.get("code_name").values
    seed = zlib.crc32(project.encode()) if project else gen.rng.getrandbits(32)
    return f"{slugify(groups[seed % len(groups)])}/{slugify(names[(seed >> 8) % len(names)])}"


def _labels(record: dict[str, Any], props: Mapping[str, Any], gen: Generation, sent: Mapping[str, Any]) -> None:
    """Labels a tracker uses ("bug", "needs-triage"), not a blog's tags."""
    labels = record.get("labels")
    if not isinstance(labels, list) or not labels or "labels" in sent:
        return
    items = (props.get("labels") or {}).get("items") or {}
    picked = gen.rng.sample(_ISSUE_LABELS, min(len(labels), 3))
    if items.get("type", "string") == "string" and all(isinstance(v, str) for v in labels):
        record["labels"] = picked
    elif all(isinstance(v, dict) and isinstance(v.get("name"), str) for v in labels):
        for entry, name in zip(labels, picked, strict=False):
            entry["name"] = name
        del labels[len(picked):]

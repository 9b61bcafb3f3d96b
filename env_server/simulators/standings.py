"""League tables whose arithmetic holds: a standings row is drawn as a whole.

A row's games played are its wins, draws and losses (wins, losses and overtime losses in the
NHL); its points follow the league's scoring (football 3/1/0, hockey 2 a win and 1 an overtime
loss, a Formula One driver at most 26 a race); goals for less goals against is the goal
difference; a winning percentage is wins over games. A table's rows are ordered by points
(or percentage), and its positions count down that order from 1.

``standings_step(entity, props)`` is asked once per object schema (``record_steps``): it reads
the roles of a row's fields by name (``intWin``, ``won``, ``otLosses``, ``goalsDiff``...) into a
``Layout`` and picks the scoring from which roles exist; a call then only draws each row's
results and writes the fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_ROLES: dict[str, frozenset[str]] = {
    "played": frozenset({"played", "played_games", "games_played", "gp", "matches_played", "games", "matches"}),
    "wins": frozenset({"win", "wins", "won", "w"}),
    "draws": frozenset({"draw", "draws", "drawn", "ties", "tied", "d"}),
    "losses": frozenset({"lose", "loss", "losses", "lost", "l"}),
    "otl": frozenset({"ot_losses", "otl", "overtime_losses", "ot_loss"}),
    "points": frozenset({"points", "pts", "total_points"}),
    "gf": frozenset({"goals_for", "gf", "goals_scored", "scored"}),
    "ga": frozenset({"goals_against", "ga", "goals_conceded", "conceded"}),
    "gd": frozenset({"goals_diff", "goal_difference", "goal_diff", "gd", "goaldifference", "goals_difference"}),
    "position": frozenset({"position", "rank", "pos", "place", "standing", "league_rank"}),
    "pct": frozenset({"winning_percentage", "win_percentage", "win_pct", "pct", "point_pctg", "points_percentage",
                      "points_pct", "percentage"}),
    "back": frozenset({"games_back", "games_behind", "gb"}),
    "form": frozenset({"form"}),
}
_BY_NAME = {name: role for role, names in _ROLES.items() for name in names}
_SEASON = {"football": 38, "hockey": 82, "wins": 162, "racing": 24}


def _role(key: str) -> str | None:
    low = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower()
    low = low[4:] if low.startswith("int_") else low[4:] if low.startswith("str_") else low  # TheSportsDB
    return _BY_NAME.get(low)


@dataclass(frozen=True)
class Layout:
    """Which field of a standings row holds which role, and how the league scores."""

    keys: Mapping[str, str]  # role -> field name
    schemas: Mapping[str, Mapping[str, Any]]  # role -> the field's schema
    scoring: str  # "football", "hockey", "wins" (a percentage table) or "racing"
    season: int  # games (or races) in a season


def layout_of(props: Mapping[str, Any]) -> Layout | None:
    """A standings row's layout from its fields, or None when the record is no such row."""
    keys: dict[str, str] = {}
    for key, sub in props.items():
        role = _role(key)
        if role is not None and role not in keys and isinstance(sub, dict):
            keys[role] = key
    if "wins" not in keys or not ({"points", "played", "pct", "position"} & keys.keys()):
        return None  # a player's wins, losses and draws by time control are no league table
    if "otl" in keys:
        scoring = "hockey"
    elif "draws" in keys and "points" in keys:
        scoring = "football"
    elif "losses" in keys or "played" in keys:
        scoring = "wins"
    else:
        scoring = "racing"
    schemas = {role: props[key] for role, key in keys.items()}
    most = next((schemas[r].get("maximum") for r in ("played", "wins") if isinstance(
        schemas.get(r, {}).get("maximum"), int) and schemas[r]["maximum"] > 2), None)
    return Layout(keys=keys, schemas=schemas, scoring=scoring, season=most or _SEASON[scoring])


def standings_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that draws a record's standings rows as wholes (its arrays of rows, or the
    record itself when it is one team's standing), or None."""
    tables: list[tuple[str, Layout]] = []
    for key, sub in props.items():
        items = sub.get("items") if isinstance(sub, dict) and sub.get("type") == "array" else None
        fields = items.get("properties") if isinstance(items, dict) else None
        layout = layout_of(fields) if isinstance(fields, dict) else None
        if layout is not None:
            tables.append((key, layout))
    own = layout_of(props)
    if not tables and own is None:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        for key, layout in tables:
            rows = record.get(key)
            if isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows):
                fill_table(rows, layout, gen)
        if own is not None and not (gen.scope.in_list and index is not None):
            draw_row(record, own, gen, _games(own, gen))

    return step


def _games(layout: Layout, gen: Generation) -> int:
    """How far into the season the table is: races so far (a ``round`` asked), else a matchday."""
    asked = gen.snaked_args.get("round")
    if isinstance(asked, int) and not isinstance(asked, bool) and 0 < asked <= layout.season:
        return asked
    return gen.rng.randint(max(1, layout.season // 4), layout.season)


def fill_table(rows: list[dict[str, Any]], layout: Layout, gen: Generation) -> None:
    """Each row's results as a whole, then the rows ordered by standing with positions 1, 2, ..."""
    games = _games(layout, gen)
    if layout.scoring == "racing":
        _race_table(rows, layout, gen, games)
    else:
        for row in rows:
            draw_row(row, layout, gen, games - (gen.rng.random() < 0.3))
    rank = "points" if "points" in layout.keys else "pct" if "pct" in layout.keys else "wins"
    key = layout.keys[rank]
    gd = layout.keys.get("gd")
    rows.sort(key=lambda r: (-_number(r.get(key)), -_number(r.get(gd)) if gd else 0.0))
    position = layout.keys.get("position")
    for place, row in enumerate(rows, start=1):
        if position is not None:
            _put(row, position, place, layout.schemas["position"])
    back = layout.keys.get("back")
    if back is not None and rows:
        _games_back(rows, layout, back)


def draw_row(row: dict[str, Any], layout: Layout, gen: Generation, games: int) -> None:
    """One team's record over ``games``: results that add up, and what follows from them."""
    rng, keys = gen.rng, layout.keys
    games = max(games, 1)
    strength = rng.uniform(0.2, 0.8)
    wins = round(games * strength * rng.uniform(0.7, 1.1))
    wins = min(wins, games)
    rest = games - wins
    draws = round(rest * rng.uniform(0.15, 0.4)) if "draws" in keys else 0
    otl = round(rest * rng.uniform(0.1, 0.25)) if layout.scoring == "hockey" else 0
    losses = rest - draws - otl
    wins, losses = _within_points(wins, draws, losses, otl, layout)
    values: dict[str, float] = {"played": games, "wins": wins, "draws": draws, "losses": losses, "otl": otl}
    if layout.scoring == "hockey":
        values["points"] = 2 * wins + otl
        values["pct"] = round(values["points"] / (2 * games), 3)
    elif layout.scoring == "football":
        values["points"] = 3 * wins + draws
        values["pct"] = round(values["points"] / (3 * games), 3)
    else:
        values["points"] = 2 * wins + draws
        values["pct"] = round((wins + draws / 2) / games, 3)
    scored = round(wins * rng.uniform(1.6, 2.6) + draws * rng.uniform(0.6, 1.4) + losses * rng.uniform(0.3, 0.9))
    against = round(losses * rng.uniform(1.6, 2.6) + draws * rng.uniform(0.6, 1.4) + wins * rng.uniform(0.3, 0.9))
    gd = _bounded(scored - against, layout.schemas.get("gd", {}))
    values.update(gf=scored, ga=scored - gd, gd=gd)
    for role, value in values.items():
        if role in keys:
            _put(row, keys[role], value, layout.schemas[role])
    if "form" in keys:
        _put(row, keys["form"], _form(wins, draws, losses + otl, gen, layout.schemas["form"]), layout.schemas["form"])


def _within_points(wins: int, draws: int, losses: int, otl: int, layout: Layout) -> tuple[int, int]:
    """Fewer wins (more losses) when the table's points field caps below what they would earn."""
    cap = layout.schemas.get("points", {}).get("maximum")
    per_win = 3 if layout.scoring == "football" else 2
    if isinstance(cap, (int, float)) and per_win * wins + (draws or otl) > cap:
        fewer = min(wins, int(-(-(per_win * wins + (draws or otl) - cap) // per_win)))
        return wins - fewer, losses + fewer
    return wins, losses


def _race_table(rows: list[dict[str, Any]], layout: Layout, gen: Generation, races: int) -> None:
    """A championship after ``races``: the leader's points within 26 a race, the rest behind,
    and no more wins among them than races run."""
    rng = gen.rng
    points = races * rng.uniform(12.0, 21.0)
    wins_left = races
    for place, row in enumerate(rows):
        share = 0.45 if place == 0 else 0.5
        wins = min(wins_left, round(wins_left * share * rng.uniform(0.3, 1.0)))
        wins_left -= wins
        values = {"points": round(points), "wins": wins}
        for role, value in values.items():
            if role in layout.keys:
                _put(row, layout.keys[role], value, layout.schemas[role])
        points *= rng.uniform(0.55, 0.95)


def _games_back(rows: list[dict[str, Any]], layout: Layout, key: str) -> None:
    wins_key, loss_key = layout.keys.get("wins"), layout.keys.get("losses")
    if wins_key is None or loss_key is None:
        return
    lead_w, lead_l = _number(rows[0].get(wins_key)), _number(rows[0].get(loss_key))
    for row in rows:
        back = ((lead_w - _number(row.get(wins_key))) + (_number(row.get(loss_key)) - lead_l)) / 2
        _put(row, key, max(back, 0.0), layout.schemas["back"])


def _form(wins: int, draws: int, losses: int, gen: Generation, schema: Mapping[str, Any]) -> str:
    """The last few results as letters, drawn in proportion to the whole record."""
    longest, shortest = schema.get("maxLength"), schema.get("minLength")
    most = longest if isinstance(longest, int) else 5
    least = shortest if isinstance(shortest, int) else 1
    size = max(least, 1, min(most, 5, wins + draws + losses))
    letters = ["W"] * wins + ["D"] * draws + ["L"] * losses or ["W"]
    return "".join(gen.rng.choice(letters) for _ in range(size))


def _bounded(value: int, schema: Mapping[str, Any]) -> int:
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(high, (int, float)):
        value = min(value, int(high))
    if isinstance(low, (int, float)):
        value = max(value, int(low))
    return value


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _put(row: dict[str, Any], key: str, value: Any, schema: Mapping[str, Any]) -> None:
    """``value`` in the field's own type (an integer, a number, a string), nearest of an enum."""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        row[key] = min(enum, key=lambda option: abs(_number(option if option != "-" else 0) - value))
        return
    typ = schema.get("type")
    if typ == "integer":
        row[key] = int(round(value))
    elif typ == "string":
        row[key] = value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)
    elif typ == "number":
        row[key] = round(float(value), 3)
    else:
        row[key] = value

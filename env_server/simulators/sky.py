"""Which weather conditions a report may show, given how warm it is and where.

Rare or violent weather (smoke, dust, sand, tornadoes, gales, torrential rain) is what a
reader notices first and believes least, so a simulated report never draws it; thunder needs warm air; blizzards, frost and
snow need cold; rain needs air above freezing; "hot and humid" needs heat.
"""

from __future__ import annotations

import functools

# Never drawn: rare enough that a report showing one is more likely wrong than right.
RARE = ("smoke", "dust", "sand", "tornado", "squall", "gale", "extreme", "torrential", "very heavy", "severe",
        "dry thunder", "snow with thunder", "hail", "tropical storm", "hurricane")
_WARM_ONLY = ("thunder", "hot", "heat", "humid", "haze", "hazy")
_FROZEN_ONLY = ("blizzard", "blowing snow")
_COLD_ONLY = ("snow", "sleet", "ice", "freez", "frost", "flurr", "cold")
_ABOVE_FREEZING = ("rain", "drizzle", "shower")

# Temperature bands (°C): what each rules out.
FROZEN_MAX = -1.0  # no liquid rain
COLD_MAX = 4.0  # snow, sleet and frost still possible
WARM_MIN = 15.0  # thunder and haze possible
HOT_MIN = 27.0  # "hot and humid"


def band(temp_c: float) -> str:
    """The temperature band a report's air is in."""
    return ("frozen" if temp_c <= FROZEN_MAX else "cold" if temp_c < COLD_MAX else "mild" if temp_c < WARM_MIN
            else "warm" if temp_c < HOT_MIN else "hot")


@functools.lru_cache(maxsize=32)
def plausible(values: tuple[str, ...], temp_band: str) -> tuple[str, ...]:
    """The conditions of ``values`` a report in this band may show (computed once per band)."""
    def fits(text: str) -> bool:
        low = text.lower()
        if any(w in low for w in RARE):
            return False
        if any(w in low for w in _WARM_ONLY) and temp_band not in ("warm", "hot"):
            return False
        if any(w in low for w in ("hot", "heat", "humid")) and temp_band != "hot":
            return False
        if any(w in low for w in _FROZEN_ONLY):
            return temp_band == "frozen"
        if any(w in low for w in _COLD_ONLY):
            return temp_band in ("frozen", "cold") and not (temp_band == "frozen" and "rain" in low)
        if any(w in low for w in _ABOVE_FREEZING):
            return temp_band != "frozen"
        return True

    kept = tuple(v for v in values if fits(v))
    return kept or values

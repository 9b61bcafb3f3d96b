"""How warm the air feels: wind chill in cold wind, the heat index in humid heat, the
air temperature in between (the rules weather services publish, in °C and km/h)."""

from __future__ import annotations

# Wind chill applies at or below 10 °C in wind above 4.8 km/h; the heat index from 27 °C.
CHILL_MAX_C = 10.0
CHILL_MIN_KPH = 4.8
HEAT_MIN_C = 27.0


def wind_chill_c(temp_c: float, wind_kph: float) -> float:
    """The North American / UK wind chill index (2001 formula)."""
    v = wind_kph ** 0.16
    return 13.12 + 0.6215 * temp_c - 11.37 * v + 0.3965 * temp_c * v


def heat_index_c(temp_c: float, humidity: float) -> float:
    """The US National Weather Service heat index (Rothfusz regression), in °C."""
    t = temp_c * 9 / 5 + 32
    rh = max(0.0, min(100.0, humidity))
    simple = 0.5 * (t + 61.0 + (t - 68.0) * 1.2 + rh * 0.094)
    if (simple + t) / 2 < 80:
        hi = simple
    else:
        hi = (-42.379 + 2.04901523 * t + 10.14333127 * rh - 0.22475541 * t * rh - 0.00683783 * t * t
              - 0.05481717 * rh * rh + 0.00122874 * t * t * rh + 0.00085282 * t * rh * rh
              - 0.00000199 * t * t * rh * rh)
    return (max(hi, t) - 32) * 5 / 9


def feels_like_c(temp_c: float, wind_kph: float, humidity: float) -> float:
    """The apparent temperature of air at ``temp_c`` in ``wind_kph`` of wind at ``humidity`` %."""
    if temp_c <= CHILL_MAX_C and wind_kph > CHILL_MIN_KPH:
        return min(temp_c, wind_chill_c(temp_c, wind_kph))
    if temp_c >= HEAT_MIN_C:
        return heat_index_c(temp_c, humidity)
    return temp_c

"""A tracked parcel reads as one: its carrier is the one whose numbers look like it, and its
delivery estimate fits how far along it is.

A tracking number's shape names its carrier (facts of the carriers' numbering): UPS writes
``1Z`` and sixteen characters, USPS 22 digits from ``92``-``95``, FedEx 12 or 15 digits, DHL
Express ten, and a postal item an S10 code whose last two letters are the country of the
post that took it (``RR123456785GB`` is Royal Mail's). So a parcel's ``slug``/``carrier``
follows its number, in the field's own style (AfterShip slugs, EasyPost carrier names, or
the schema's enum). A delivered parcel's expected delivery lies behind it, one out for
delivery is due today, and one in transit within days, not months.

``parcel_step(entity, props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.naming import snake

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_PARCEL = frozenset({"tracking", "tracker", "shipment", "parcel", "package", "delivery"})
NUMBER_FIELDS = ("tracking_number", "tracking_code", "package_tracking_number", "tracking_no", "waybill",
                 "awb_number")
CARRIER_FIELDS = ("slug", "carrier", "courier", "carrier_code", "courier_code", "carrier_slug", "courier_slug")
STATUS_FIELDS = ("tag", "status", "delivery_status", "state")
ETA_FIELDS = ("expected_delivery", "est_delivery_date", "estimated_delivery", "estimated_delivery_date",
              "expected_delivery_date", "eta", "delivery_date")

# (number shape, AfterShip slug, carrier name as EasyPost and most APIs write it)
CARRIER_FORMATS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p), slug, name) for p, slug, name in (
        (r"^1Z[0-9A-Z]{16}$", "ups", "UPS"),
        (r"^9[2-5]\d{20}$", "usps", "USPS"),
        (r"^(\d{12}|\d{15})$", "fedex", "FedEx"),
        (r"^\d{10}$", "dhl", "DHLExpress"),
    ))
# The post behind an S10 item, by the item's country suffix.
S10_POSTS = {"US": ("usps", "USPS"), "GB": ("royal-mail", "RoyalMail"), "CA": ("canada-post", "CanadaPost"),
             "AU": ("australia-post", "AustraliaPost"), "SE": ("postnord", "PostNord"),
             "DK": ("postnord", "PostNord"), "FR": ("la-poste-colissimo", "LaPoste"), "JP": ("japan-post", "JapanPost"),
             "CN": ("china-ems", "ChinaEMS"), "DE": ("dhl-germany", "DeutschePost"), "BE": ("bpost", "Bpost"),
             "IT": ("poste-italiane", "PosteItaliane"), "ES": ("correos-spain", "Correos"),
             "IN": ("india-post", "IndiaPost")}
_S10 = re.compile(r"^[A-Z]{2}\d{9}([A-Z]{2})$")

# Days from today to the delivery estimate, by how far along the parcel is (inclusive range).
_ETA_DAYS: tuple[tuple[tuple[str, ...], tuple[int, int]], ...] = (
    (("delivered", "signed"), (-9, -1)),
    (("out_for_delivery", "outfordelivery", "out for delivery"), (0, 0)),
    (("available_for_pickup", "availableforpickup", "attemptfail", "attempt_fail", "failure", "exception",
      "return_to_sender", "returned"), (1, 4)),
    (("expired", "cancelled", "canceled"), (-30, -10)),
    (("in_transit", "intransit", "transit", "shipped", "dispatched"), (1, 5)),
    (("pre_transit", "info_received", "inforeceived", "pending", "label_created", "created", "unknown"), (3, 8)),
)


def carrier_of(number: str) -> tuple[str, str] | None:
    """(AfterShip slug, carrier name) of the carrier whose numbers look like ``number``, or None."""
    text = number.strip().upper()
    s10 = _S10.match(text)
    if s10:
        return S10_POSTS.get(s10.group(1))
    return next(((slug, name) for shape, slug, name in CARRIER_FORMATS if shape.match(text)), None)


def eta_days(status: str) -> tuple[int, int] | None:
    """The range of days from today a parcel of ``status`` is expected, or None for a status unknown here."""
    low = status.strip().lower().replace("-", "_")
    return next((span for names, span in _ETA_DAYS if low in names), None)


def parcel_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a parcel's carrier and delivery estimate fit its number and status, or None."""
    number_key = next((k for k in props if snake(k) in NUMBER_FIELDS), None)
    if not set(snake(entity).split("_")) & _PARCEL and number_key is None:
        return None  # an order with a tracking number is a parcel too
    carrier_key = next((k for k in props if snake(k) in CARRIER_FIELDS), None)
    status_key = next((k for k in props if snake(k) in STATUS_FIELDS), None)
    eta_key = next((k for k in props if snake(k) in ETA_FIELDS), None)
    if not (number_key and carrier_key) and not (status_key and eta_key):
        return None
    enum = props[carrier_key].get("enum") if carrier_key and isinstance(props[carrier_key], dict) else None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        sent = gen.snaked_args
        if number_key and carrier_key and isinstance(record.get(number_key), str) and snake(carrier_key) not in sent:
            found = carrier_of(record[number_key])
            shown = _styled(found, snake(carrier_key), enum) if found else None
            if shown is not None:
                record[carrier_key] = shown
        if status_key and eta_key and isinstance(record.get(status_key), str) and isinstance(record.get(eta_key), str):
            span = eta_days(record[status_key])
            if span is not None and snake(eta_key) not in sent:
                record[eta_key] = _moved(record[eta_key], gen.today + dt.timedelta(days=gen.rng.randint(*span)))

    return step


def _styled(found: tuple[str, str], field: str, enum: Any) -> str | None:
    """The carrier as the field writes it: an enum's own value, a slug, or a name."""
    slug, name = found
    if isinstance(enum, list):
        folded = {re.sub(r"[^a-z0-9]", "", str(e).lower()): e for e in enum}
        return next((folded[k] for k in (re.sub(r"[^a-z0-9]", "", slug), name.lower()) if k in folded), None)
    return slug if "slug" in field else name


def _moved(old: str, day: dt.date) -> str:
    """``old`` (a date or a date-time) moved to ``day``, keeping its time and its format."""
    return day.isoformat() + old[10:] if re.match(r"^\d{4}-\d{2}-\d{2}", old) else old

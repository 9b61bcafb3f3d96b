"""Plain inline-SVG charts for the HTML reports (no plotting dependency, nothing fetched).

Every mark carries ``data-label`` / ``data-value`` attributes and a ``<title>`` tooltip, so the
charts can be checked by parsing the HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

FONT = "font-family='system-ui, sans-serif' font-size='12'"
BAR_COLOR = "#4c72b0"
LINE_COLOR = "#c44e52"


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def hbar_chart(items: Sequence[tuple[str, float, str]], *, title: str, max_value: float = 1.0,
               percent: bool = True, width: int = 640) -> str:
    """Horizontal bars: (label, value, note) per bar; ``note`` is printed after the value."""
    label_w, bar_h, gap, top = 210, 20, 8, 30
    plot_w = width - label_w - 120
    height = top + len(items) * (bar_h + gap) + 10
    scale = max_value if max_value > 0 else 1.0
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='chart hbar' role='img' width='{width}' "
           f"height='{height}' viewBox='0 0 {width} {height}' aria-label='{_attr(title)}'>",
           f"<text x='0' y='16' {FONT} font-weight='bold'>{escape(title)}</text>"]
    for k, (label, value, note) in enumerate(items):
        y = top + k * (bar_h + gap)
        w = max(0.0, min(1.0, value / scale)) * plot_w
        shown = f"{value * 100:.1f}%" if percent else f"{value:g}"
        out.append(f"<text x='{label_w - 6}' y='{y + 14}' text-anchor='end' {FONT}>{escape(label)}</text>")
        out.append(f"<rect x='{label_w}' y='{y}' width='{plot_w}' height='{bar_h}' fill='#eee'/>")
        out.append(f"<rect class='bar' data-label='{_attr(label)}' data-value='{value:.4f}' x='{label_w}' y='{y}' "
                   f"width='{w:.1f}' height='{bar_h}' fill='{BAR_COLOR}'><title>{escape(label)}: {shown} {escape(note)}"
                   f"</title></rect>")
        out.append(f"<text x='{label_w + plot_w + 6}' y='{y + 14}' {FONT}>{shown} {escape(note)}</text>")
    out.append("</svg>")
    return "".join(out)


def line_chart(points: Sequence[tuple[str, float, int]], *, title: str, x_label: str, y_label: str = "accuracy",
               width: int = 560, height: int = 300) -> str:
    """A 0-100% line over categorical x: (x label, ratio, count) per point; the count is shown as n=."""
    left, right, top, bottom = 56, 20, 34, 52
    plot_w, plot_h = width - left - right, height - top - bottom
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' class='chart line' role='img' width='{width}' "
           f"height='{height}' viewBox='0 0 {width} {height}' aria-label='{_attr(title)}'>",
           f"<text x='0' y='16' {FONT} font-weight='bold'>{escape(title)}</text>"]
    for tick in range(0, 101, 25):
        y = top + plot_h * (1 - tick / 100)
        out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#ddd'/>")
        out.append(f"<text x='{left - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT}>{tick}%</text>")
    out.append(f"<line x1='{left}' x2='{left}' y1='{top}' y2='{top + plot_h}' stroke='#333'/>")
    out.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{top + plot_h}' y2='{top + plot_h}' stroke='#333'/>")
    out.append(f"<text x='{left + plot_w / 2:.1f}' y='{height - 8}' text-anchor='middle' {FONT}>{escape(x_label)}</text>")
    out.append(f"<text x='14' y='{top + plot_h / 2:.1f}' text-anchor='middle' {FONT} "
               f"transform='rotate(-90 14 {top + plot_h / 2:.1f})'>{escape(y_label)}</text>")
    step = plot_w / max(len(points), 1)
    coords = []
    for k, (x, value, count) in enumerate(points):
        cx = left + step * (k + 0.5)
        cy = top + plot_h * (1 - max(0.0, min(1.0, value)))
        coords.append((cx, cy))
        out.append(f"<text x='{cx:.1f}' y='{top + plot_h + 16}' text-anchor='middle' {FONT}>{escape(x)}</text>")
        out.append(f"<text x='{cx:.1f}' y='{top + plot_h + 30}' text-anchor='middle' {FONT} fill='#777'>n={count}</text>")
    if len(coords) > 1:
        path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
        out.append(f"<polyline points='{path}' fill='none' stroke='{LINE_COLOR}' stroke-width='2'/>")
    for (cx, cy), (x, value, count) in zip(coords, points, strict=True):
        out.append(f"<circle class='point' data-label='{_attr(x)}' data-value='{value:.4f}' data-count='{count}' "
                   f"cx='{cx:.1f}' cy='{cy:.1f}' r='4' fill='{LINE_COLOR}'><title>{escape(x)}: {value * 100:.1f}% "
                   f"(n={count})</title></circle>")
        out.append(f"<text x='{cx:.1f}' y='{cy - 8:.1f}' text-anchor='middle' {FONT}>{value * 100:.0f}%</text>")
    out.append("</svg>")
    return "".join(out)

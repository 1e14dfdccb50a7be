#!/usr/bin/env python3
"""Draw the book's app icon (a twenty-sided die on a dark red tile) as SVG and PNG into
book/_ext/icons/. Run once after changing the drawing; the files are kept in the repository."""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "book" / "_ext" / "icons"
TILE, FACE, EDGE = "#7a1f1f", "#ffffff", "#7a1f1f"
# on a 512 grid: hexagon outline of the die, its front triangle, and the edges between them
HEX = [(256 + 180 * math.cos(math.radians(a)), 256 + 180 * math.sin(math.radians(a)))
       for a in (-90, -30, 30, 90, 150, 210)]
TRI = [(256, 150), (348, 310), (164, 310)]
SPOKES = [(TRI[0], HEX[0]), (TRI[0], HEX[1]), (TRI[0], HEX[5]), (TRI[1], HEX[1]), (TRI[1], HEX[2]),
          (TRI[1], HEX[3]), (TRI[2], HEX[3]), (TRI[2], HEX[4]), (TRI[2], HEX[5])]
STROKE = 12


def svg() -> str:
    pts = lambda ps: " ".join(f"{x:.1f},{y:.1f}" for x, y in ps)  # noqa: E731
    lines = "".join(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}"/>'
                    for a, b in SPOKES)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
            f'<rect width="512" height="512" rx="96" fill="{TILE}"/>'
            f'<polygon points="{pts(HEX)}" fill="{FACE}"/>'
            f'<g stroke="{EDGE}" stroke-width="{STROKE}" stroke-linejoin="round" stroke-linecap="round" '
            f'fill="none"><polygon points="{pts(TRI)}"/>{lines}</g></svg>\n')


def png(size: int) -> Image.Image:
    k = 4 * size / 512  # draw large, then shrink: smooth edges
    img = Image.new("RGBA", (4 * size, 4 * size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = lambda ps: [(x * k, y * k) for x, y in ps]  # noqa: E731
    d.rounded_rectangle([0, 0, 4 * size - 1, 4 * size - 1], radius=96 * k, fill=TILE)
    d.polygon(s(HEX), fill=FACE)
    w = max(1, round(STROKE * k))
    d.line(s(TRI + TRI[:1]), fill=EDGE, width=w, joint="curve")
    for a, b in SPOKES:
        d.line(s([a, b]), fill=EDGE, width=w)
    return img.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg())
    for size in (192, 512):
        # two colours and their smoothed edges: a 32-colour palette looks the same and is a
        # fraction of the bytes (the icon is part of a phone's first visit)
        png(size).quantize(32, method=Image.Quantize.FASTOCTREE).save(OUT / f"icon-{size}.png", optimize=True)
    print("icons written to", OUT)

"""An independent scorer for cross-checking the engine in the variants tests.

It works from axial coordinates and tile tokens only (no engine tables), and
restates the default sun/moon map from its description in
``data/symbols/default.json``.
"""

from __future__ import annotations

VALUES = ("159", "267", "348")
BEST = (9, 7, 8)
STANDARD_CELLS = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
DAFFODIL_CELLS = sorted({(cq + dq, cr + dr) for cq, cr in ((0, 0), (2, 1), (3, -2))
                         for dq, dr in ((0, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))})


def runs(cells):
    """Lines as lists of cell indices: per direction, maximal runs of 2+ cells."""
    index = {c: i for i, c in enumerate(cells)}
    steps = ((0, 1), (1, -1), (1, 0))  # vertical, rising, falling
    out = []
    for d, (dq, dr) in enumerate(steps):
        for c in cells:
            if (c[0] - dq, c[1] - dr) in index:
                continue
            run, here = [], c
            while here in index:
                run.append(index[here])
                here = (here[0] + dq, here[1] + dr)
            if len(run) >= 2:
                out.append((d, run))
    return out


def symbol(token):
    """Sun or moon under the default map."""
    if "*" in token:
        return "sun" if token == "***" else "moon"
    return "sun" if sum(VALUES[d].index(ch) for d, ch in enumerate(token)) % 2 == 0 else "moon"


def line_points(tokens, d, run):
    if any(tokens[i] == "." for i in run):
        return 0
    values = {tokens[i][d] for i in run} - {"*"}
    if len(values) > 1:
        return 0
    value = int(values.pop()) if values else BEST[d]
    return value * len(run)


def score(tokens, cells, sunrays=False):
    total = 0
    for d, run in runs(cells):
        total += line_points(tokens, d, run)
        if sunrays and all(tokens[i] != "." for i in run):
            symbols = {symbol(tokens[i]) for i in run}
            if symbols == {"sun"}:
                total += 7 * len(run)
            elif symbols == {"moon"}:
                total += 6 * len(run)
    return total


def best_rays(tokens, cells, which):
    """Sorted (length, value) of scoring rows whose tiles all carry ``which``."""
    rays = []
    for d, run in runs(cells):
        points = line_points(tokens, d, run)
        if points and {symbol(tokens[i]) for i in run} == {which}:
            rays.append((len(run), points // len(run)))
    return sorted(rays, reverse=True)

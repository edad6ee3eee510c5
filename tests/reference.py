"""An independent scorer for tests: plain Python from axial coordinates, sharing no code with the engine."""

from __future__ import annotations

VALUES = ((1, 5, 9), (2, 6, 7), (3, 4, 8))


def standard_cells():
    return sorted((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2)


def daffodil_cells():
    centres = ((0, 0), (2, 1), (3, -2))
    cells = {(cq + dq, cr + dr) for cq, cr in centres for dq in (-1, 0, 1) for dr in (-1, 0, 1) if abs(dq + dr) <= 1}
    return sorted(cells)


def lines_of(cells):
    """Maximal straight runs of two or more cells, per direction (0: q fixed, 1: s fixed, 2: r fixed)."""
    cellset = set(cells)
    steps = ((0, 1), (1, -1), (1, 0))
    out = []
    for d, (dq, dr) in enumerate(steps):
        for q, r in cells:
            if (q - dq, r - dr) in cellset:
                continue
            run = []
            while (q, r) in cellset:
                run.append((q, r))
                q, r = q + dq, r + dr
            if len(run) >= 2:
                out.append((d, run))
    return out


def parse_token(token):
    if token == ".":
        return None
    token = token.replace("-", "")
    return tuple(None if ch == "*" else int(ch) for ch in token)


def score(text, cells=None, symbols=None):
    """Score board text; ``symbols`` maps tokens to 'sun'/'moon' for Sunrays and Moonbeams."""
    cells = cells or standard_cells()
    tokens = text.split()
    assert len(tokens) == len(cells)
    board = dict(zip(cells, tokens))
    total = 0
    for d, run in lines_of(cells):
        tiles = [parse_token(board[c]) for c in run]
        if any(t is None for t in tiles):
            continue
        values = {t[d] for t in tiles if t[d] is not None}
        if len(values) == 1:
            total += len(run) * values.pop()
        elif not values:
            total += len(run) * max(VALUES[d])
        if symbols is not None:
            kinds = {symbols[board[c].replace("-", "")] for c in run}
            if kinds == {"sun"}:
                total += 7 * len(run)
            elif kinds == {"moon"}:
                total += 6 * len(run)
    return total

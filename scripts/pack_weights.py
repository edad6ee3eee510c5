"""Store weight files as the package ships them: each weight as a whole number of 1/64 points (``int16``,
LZMA-compressed; :meth:`takeiteasy.ai.value.ValueFunction.save` with ``step``).  Rewrites each file in place and
prints its size before and after:

    python scripts/pack_weights.py runs/daffodil-draw2/weights.npz --out src/takeiteasy/data/weights/daffodil-draw2.npz

Leave ``standard.npz`` and ``daffodil.npz`` as they are (``float16``): the README's training commands start from
them by content (``--start``), so rewriting them would change those runs' settings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from takeiteasy.ai.value import SHIPPED_STEP, ValueFunction  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, help="write the one file given here instead of rewriting it")
    parser.add_argument("--step", type=float, default=SHIPPED_STEP)
    args = parser.parse_args()
    if args.out is not None and len(args.files) != 1:
        parser.error("--out takes exactly one file")
    for path in args.files:
        target = args.out or path
        before = path.stat().st_size
        ValueFunction.load(path).save(target, compression="lzma", step=args.step)
        print(f"{path.name}: {before:,} -> {target.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: how long ``ValueFunction.save`` takes, and how large the file is, with each compression.

The shipped ``standard.npz`` and ``daffodil.npz`` are loaded and saved again as ``float32`` (what
``takeiteasy train`` writes at the end of a run) and in whole steps of 1/64 point (how the package ships its
weights), with numpy's deflate and with LZMA.  Reports the median of ``--repeat`` saves and the file's size.

Run: ``PYTHONPATH=src python benchmarks/bench_weights_save.py``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path

from takeiteasy.ai.value import SHIPPED_STEP, ValueFunction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shipped = resources.files("takeiteasy") / "data" / "weights"
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "weights.npz"
        for name in ("standard.npz", "daffodil.npz"):
            with resources.as_file(shipped / name) as path:
                value = ValueFunction.load(path)
            for stored, options in (("float32", {}), ("1/64 steps", {"step": SHIPPED_STEP})):
                for compression in ("deflate", "lzma"):
                    seconds = []
                    for _ in range(args.repeat):
                        start = time.perf_counter()
                        value.save(target, compression=compression, **options)
                        seconds.append(time.perf_counter() - start)
                    print(f"{name:13} {stored:10} {compression:7} median {statistics.median(seconds):6.2f} s  "
                          f"{target.stat().st_size:>10,} bytes")


if __name__ == "__main__":
    main()

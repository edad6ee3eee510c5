"""The learned value function: weights over the features of :mod:`takeiteasy.ai.features`.

The value of a position (the board right after a placement, plus the bag) is
the number of points the rest of the round is expected to add; the expected
final score of a placement is therefore the points on the board after it plus
that value.  Weights live in one flat ``float32`` vector saved as ``.npz``
(no pickle) together with the layout name and the feature version.

The shipped weights are in ``takeiteasy/data/weights/<layout>.npz``, weights learned under a
placement variant in ``<layout>-<placement>.npz`` and under Sunrays and Moonbeams scoring in
``<layout>-sunrays.npz``, with the wildcards in ``<layout>-wildcards.npz``, under a stamen rule in
``<layout>-stamen-<rule>.npz`` and under two variants at once in ``<layout>-<variant>-<variant>.npz`` (the
agents prefer them in those variants' games: :func:`shipped`).
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np

from ..core.errors import InputError, shown
from ..core.files import MAX_FILE_BYTES
from ..core.tiles import NUM_STANDARD
from .features import FEATURES_VERSION, FeatureSpec, feature_spec


class WeightsError(InputError):
    """A weight file that cannot be used."""


def weights_bytes(path: str | os.PathLike) -> int:
    """How many bytes the arrays of an ``.npz`` archive take unpacked, as its directory says (reading a member
    stops at the size the directory gives it, so a lying directory cannot make it larger)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return sum(member.file_size for member in archive.infolist())
    except (OSError, zipfile.BadZipFile):
        return 0  # unreadable: np.load below says why


WEIGHT_STEP_KEY = "weight_step"
SHIPPED_STEP = 1 / 64  # the shipped weights' resolution in points: a power of two, so exact in float32
#: ValueFunction.save's compressions by name: LZMA's archive of trained weights is about a third smaller than
#: deflate's, and takes ten times as long to write (docs/BENCHMARKS.md, "Weights in whole numbers of 1/64 point")
COMPRESSIONS = {"deflate": zipfile.ZIP_DEFLATED, "lzma": zipfile.ZIP_LZMA, "none": zipfile.ZIP_STORED}


def _weight_step(step, path) -> float:
    """The step of a file that stores its weights as whole numbers of steps, checked."""
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not (np.isfinite(step) and step > 0):
        raise WeightsError(f"weights {path}: stored as whole numbers, but the metadata gives no positive "
                           f"'{WEIGHT_STEP_KEY}' to scale them by ({step!r})")
    return float(step)


@dataclass
class ValueFunction:
    """A learned estimate of the points a board will still make: one weight per feature of
    :func:`takeiteasy.ai.features.feature_spec`, with the metadata it was trained and saved with."""

    spec: FeatureSpec
    weights: np.ndarray  # float32, spec.num_weights
    info: dict

    @classmethod
    def zeros(cls, layout_name: str = "standard", scoring: str = "standard") -> "ValueFunction":
        """A value function with every weight 0 (training starts from it)."""
        spec = feature_spec(layout_name, scoring)
        return cls(spec, np.zeros(spec.num_weights, dtype=np.float32), {})

    def save(self, path: str | Path, compression: str = "deflate", half: bool = False,
             step: float | None = None) -> None:
        """Write the weights and their metadata as an ``.npz`` archive (``.npz`` is added to a path without it).

        ``compression``: ``"deflate"`` (numpy's own, and fast: a fraction of a second for the standard board's
        weights), ``"lzma"`` (a third smaller, but seconds to write: how the package ships its weights,
        ``scripts/pack_weights.py``) or ``"none"``; ``np.load`` reads each like any ``.npz``.  ``half``: store
        the weights as ``float16`` (they load as ``float32`` again), which halves the file again.  ``step``: store
        each weight as the nearest whole number of steps, as ``int16``, with the step in the metadata; the shipped
        weights are stored so with a step of 1/64 point (:data:`SHIPPED_STEP`), 40% smaller than ``float16`` at no
        measurable cost in play (docs/BENCHMARKS.md)."""
        meta = dict(self.info, layout=self.spec.layout_name, features_version=FEATURES_VERSION)
        if self.spec.scoring != "standard":  # standard weights keep the metadata they always had
            meta["scoring"] = self.spec.scoring
        weights = self.weights
        if compression not in COMPRESSIONS:
            raise ValueError(f"compression {compression!r}: one of {', '.join(COMPRESSIONS)}")
        if half and step is not None:
            raise ValueError("save the weights either as float16 (half=True) or in steps (step=...), not both")
        if half:
            if np.abs(self.weights).max(initial=0) > np.finfo(np.float16).max:
                raise ValueError("weights beyond float16's range (65,504); save them without half=True")
            weights = self.weights.astype(np.float16)
        if step is not None:
            if not (np.isfinite(step) and step > 0):
                raise ValueError(f"step {step}: a weight step is a positive number")
            counts = np.rint(self.weights.astype(np.float64) / step)
            limit = np.iinfo(np.int16).max
            if np.abs(counts).max(initial=0) > limit:
                raise ValueError(f"weights beyond {limit} steps of {step}; save them with a larger step")
            weights = counts.astype(np.int16)
            meta[WEIGHT_STEP_KEY] = float(step)
        arrays = {"weights": weights, "meta": np.array(json.dumps(meta))}
        path = Path(path)
        if path.suffix != ".npz":  # as np.savez names it
            path = path.with_name(path.name + ".npz")
        with zipfile.ZipFile(path, "w", compression=COMPRESSIONS[compression]) as archive:
            for name, array in arrays.items():
                with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, array, allow_pickle=False)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "ValueFunction":
        """Read weights written by :meth:`save`; :class:`WeightsError` for a file that cannot be used."""
        if not os.fspath(path).strip():  # Path("") is the current folder: "weights : not a regular file"
            raise WeightsError("weights: no file named; give a weights.npz from takeiteasy train")
        if Path(path).exists() and not Path(path).is_file():  # a device such as /dev/zero: numpy read it whole
            raise WeightsError(f"weights {path}: not a regular file (takeiteasy train writes weights.npz)")
        if Path(path).is_file():
            if not zipfile.is_zipfile(path):  # numpy would suggest unpickling it
                raise WeightsError(f"weights {path}: not an .npz archive (takeiteasy train writes weights.npz)")
            unpacked = weights_bytes(path)
            if unpacked > MAX_FILE_BYTES:  # a small archive may unpack to gigabytes, all read before any check
                raise WeightsError(f"weights {path}: {unpacked:,} bytes unpacked, more than the {MAX_FILE_BYTES:,} any "
                                   "weights file holds")
        try:
            with np.load(path, allow_pickle=False) as data:
                if "games_done" in data.files and "meta" not in data.files:
                    raise WeightsError(f"weights {path}: a training checkpoint, not weights; takeiteasy train "
                                       "writes weights.npz beside it when the run ends")
                stored = data["weights"]
                meta = json.loads(str(data["meta"]))
                weights = np.ascontiguousarray(stored, dtype=np.float32)
                if isinstance(meta, dict) and stored.dtype.kind in "iu":  # whole steps (save(step=...))
                    weights *= np.float32(_weight_step(meta.pop(WEIGHT_STEP_KEY, None), path))
        except WeightsError:
            raise
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:  # EOF: empty; BadZip: cut short
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc  # not "[Errno 2] ...: 'path'"
            raise WeightsError(f"weights {path}: cannot read them ({why})") from None
        if not isinstance(meta, dict) or not isinstance(meta.get("layout"), str):
            raise WeightsError(f"weights {path}: no layout name in their metadata; not a takeiteasy weights file")
        if meta.get("features_version") != FEATURES_VERSION:
            raise WeightsError(f"weights {path}: made for feature version {shown(meta.get('features_version'))}, "
                               f"this program uses {FEATURES_VERSION}")
        if not isinstance(meta.get("config", {}), dict):  # the rules they were trained under (rules_mismatch)
            raise WeightsError(f"weights {path}: their metadata's config is {shown(meta['config'])}, not an object "
                               "of training settings")
        try:
            spec = feature_spec(meta["layout"], str(meta.get("scoring", "standard")))
        except InputError as exc:
            raise WeightsError(f"weights {path}: {exc}") from None
        if weights.shape != (spec.num_weights,):
            raise WeightsError(f"weights {path}: {weights.size} weights, the {spec.layout_name} layout needs "
                               f"{spec.num_weights}")
        if not np.isfinite(weights).all():  # play would compare NaNs and pick no cell at all
            raise WeightsError(f"weights {path}: {int((~np.isfinite(weights)).sum())} of them are not finite numbers "
                               "(NaN or infinite)")
        return cls(spec, weights, meta)


def rules_mismatch(value: "ValueFunction", rules) -> str | None:
    """How the rules ``value`` was trained under differ from ``rules`` (placement, scoring, stamen, draw), or
    None: such weights still play, but judge positions by another game's rules."""
    # a setting the file does not record was the trainer's default then (the rule variants came later)
    trained = {"placement": "free", "scoring": "standard", "stamen": "free", "draw": 1} | value.info.get("config", {})
    names = ("placement", "scoring", "stamen", "draw")
    differences = [f"{name} {trained[name]}" for name in names if trained[name] != getattr(rules.options, name)]
    if not differences:
        return None
    shown = [name for name in names if name != "draw" or trained[name] != rules.options.draw]
    return f"trained for {', '.join(differences)}; this game is " + \
        ", ".join(f"{name} {getattr(rules.options, name)}" for name in shown)


#: In a game of three variants with no file for all three, which pair's file: the scoring variant's (its bonus
#: is worth most) with the variant that binds play most, in this order (measured: docs/BENCHMARKS.md, "Two
#: variants together"; with the stamen first the placement rules never bind).
GROUP_PREFERENCE = {"stamen-first": 0, "adjacent": 1, "wildcards": 2, "stamen-last": 3, "sunmoon": 4}


def shipped_path(layout_name: str, variant: str = "free"):
    """Where the weights of a layout under a variant (a scoring, tile-set, placement or stamen rule) are shipped."""
    name = layout_name if variant in ("free", "standard") else f"{layout_name}-{variant}"
    return resources.files("takeiteasy.data").joinpath("weights", f"{name}.npz")


def shipped(layout_name: str, placement: str = "free", scoring: str = "standard",
            wildcards: bool = False, stamen: str = "free", draw: int = 1) -> ValueFunction | None:
    """The weights shipped for a layout under a game's variants: those trained under all of them together
    when there are some (``<layout>-stamen-last-adjacent.npz``: the variants' names in the order below), else
    under as many of them together as there are (of two such groups, the one that binds play most:
    ``GROUP_PREFERENCE``), else
    the first there are of those trained under its scoring variant (its bonuses are worth far more than the
    rest), with the wildcards (``wildcards``: the game deals them on a layout whose own tile set lacks them),
    under its stamen rule (``stamen-first``, ``stamen-last``), under its placement variant, with two tiles drawn
    at a time (``draw2``); else the layout's own; None when the layout has none.  Each file is loaded once.
    (That order is measured: docs/BENCHMARKS.md, "The wildcards on the standard board" and "The daffodil stamen
    rules".)"""
    stamen_variant = f"stamen-{stamen}" if stamen in ("first", "last") else "free"  # not the holding area
    variants = [scoring, "wildcards" if wildcards else "free", stamen_variant, placement,
                "draw2" if draw == 2 else "free"]
    named = [v for v in variants if v not in ("free", "standard")]
    # all of its variants together, then fewer of them together (the groups that bind play most first), then
    # one by one
    groups = [group for size in range(len(named), 1, -1) for group in combinations(named, size)]
    groups.sort(key=lambda group: (-len(group), sorted(GROUP_PREFERENCE.get(v, -1) for v in group)))
    candidates = ["-".join(group) for group in groups] + variants
    for variant in candidates:
        if variant not in ("free", "standard") and shipped_path(layout_name, variant).is_file():
            return _load_shipped(layout_name, variant)
    return _load_shipped(layout_name, "free")


def shipped_for(rules) -> ValueFunction | None:
    """The shipped weights the agents use in a game of these rules (a :class:`~takeiteasy.core.rules.Ruleset`)."""
    # the wildcards are a variant only where the layout's own tile set lacks them: a layout has them of its own
    # when it has stamen cells (the daffodil board; Ruleset.from_options).  (Rebuilding the ruleset without the
    # option to find out refused a custom board of 28 to 31 cells, too many for the tiles without wildcards.)
    wildcards = len(rules.tile_set) > NUM_STANDARD and not rules.layout.stamen_cells
    return shipped(rules.layout.name, rules.options.placement, rules.scoring.name,
                   wildcards=wildcards, stamen=rules.options.stamen, draw=rules.options.draw)


@cache
def _load_shipped(layout_name: str, variant: str) -> ValueFunction | None:
    path = shipped_path(layout_name, variant)
    if not path.is_file():
        return None
    with resources.as_file(path) as real:
        return ValueFunction.load(real)

"""Personal bests for solitaire ("keep trying until you beat your personal best", rulebooks 000 and 004).

Bests are kept per ruleset: the key is the options JSON without the
``solitaire`` and match fields, so a solitaire round of the adjacent variant
is compared only with earlier adjacent rounds.  The store is a small JSON
file in the user's data directory (``platformdirs``), or any path given.

>>> import tempfile, os
>>> store = PersonalBests(os.path.join(tempfile.mkdtemp(), "bests.json"))
>>> store.record(Options(solitaire=True), 150)
(None, True)
>>> store.record(Options(solitaire=True), 120)
(150, False)
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import InputError
from .rules import Options

#: Options that do not change how a single board plays.
_NOT_RULES = ("solitaire", "rounds", "match", "best_ray_ties")


def rules_key(options: Options) -> str:
    data = {k: v for k, v in options.to_json().items() if k not in _NOT_RULES}
    return json.dumps(data, sort_keys=True)


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("takeiteasy")) / "bests.json"


class PersonalBests:
    """Best solitaire score per ruleset, kept in a JSON file."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"personal bests {self.path}: cannot read it ({exc})") from None
        return data if isinstance(data, dict) else {}

    def best(self, options: Options) -> int | None:
        """The personal best for these rules, or None before the first round."""
        entry = self._load().get(rules_key(options))
        return None if entry is None else int(entry)

    def record(self, options: Options, score: int) -> tuple[int | None, bool]:
        """Record a finished round: (the previous best, whether this score beats it)."""
        data = self._load()
        key = rules_key(options)
        previous = data.get(key)
        beaten = previous is None or score > previous
        if beaten:
            data[key] = int(score)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, indent=1, sort_keys=True))
        return previous, beaten

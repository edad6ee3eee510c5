"""Named presets: a short name, a one-line description and the options it sets.

The presets are data (``takeiteasy/data/presets/presets.json``); each lists
only the options that differ from :class:`~takeiteasy.core.rules.Options`'
defaults.  The command line (``--preset``), the web app, the agents and saved
games refer to them by name, so names never change.

>>> preset("easier").draw
2
>>> preset("daffodil-holding").stamen
'holding'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .rules import Options, RulesError


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    source: str  # the rulebooks it comes from
    changes: dict  # the options it sets, as JSON

    @property
    def options(self) -> Options:
        return Options.from_json(self.changes)

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.description, "source": self.source,
                "options": self.options.to_json()}


@cache
def presets() -> dict[str, Preset]:
    """Every preset by name, in the order the data file lists them."""
    text = resources.files("takeiteasy.data.presets").joinpath("presets.json").read_text()
    return {p["name"]: Preset(p["name"], p["description"], p.get("source", ""), dict(p["options"]))
            for p in json.loads(text)["presets"]}


def preset(name: str) -> Options:
    """The options of a preset by name (raises :class:`RulesError` naming the known presets)."""
    try:
        return presets()[name].options
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; expected one of {', '.join(presets())} "
                         "(see takeiteasy variants)") from None


def preset_of(options: Options) -> str | None:
    """The name of the preset whose options are exactly ``options``, if any."""
    for name, p in presets().items():
        if p.options == options:
            return name
    return None

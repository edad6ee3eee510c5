"""The named presets (``presets.json``: name, description, source rulebooks, options), read by :mod:`takeiteasy.core.presets`."""

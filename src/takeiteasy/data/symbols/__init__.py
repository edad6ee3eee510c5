"""The default sun/moon map of the tiles (``default.json``), read by :mod:`takeiteasy.core.tiles`; ``--symbols FILE.json`` replaces it."""

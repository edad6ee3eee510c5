"""Data files shipped with the engine: board layouts, the default sun/moon map, the presets and trained weights."""

"""Board layouts as data: ``NAME.json`` lists the cells as ``[q, r]`` pairs in notation order, and the stamen cells (read by :mod:`takeiteasy.core.layouts`)."""

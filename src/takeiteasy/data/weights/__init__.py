"""Trained value-function weights per board layout (``standard.npz``, ``daffodil.npz``), loaded by :mod:`takeiteasy.ai.value`."""

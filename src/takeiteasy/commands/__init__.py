"""Subcommands of the ``takeiteasy`` command line, one module each (see :mod:`takeiteasy.cli`)."""

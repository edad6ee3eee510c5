"""The one base class for input the engine refuses (bad notation, options, files, moves)."""


class InputError(ValueError):
    """Bad input from a user or a file.  ``str()`` is a one-line message; surfaces show it as is."""

"""Command-line options shared by every command that needs a ruleset.

Each rules option maps to exactly one :class:`~takeiteasy.core.rules.Options`
field of the same name (dashes for underscores): ``--stamen holding`` is
``{"stamen": "holding"}``.  ``--preset NAME`` starts from a named preset
and ``--options JSON`` from an Options JSON object (or a file holding one);
options given explicitly override both.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import fields

from ..core.errors import InputError, shown
from ..core.files import read_text
from ..core.layouts import LAYOUT_NAMES, read_json
from ..core.presets import preset, presets
from ..core.rules import Options, Ruleset, RulesError

#: Options fields, in the order --help shows them.
FIELDS = tuple(f.name for f in fields(Options))

#: The most --jobs of bench and solve: processes or Ray tasks (the random agent's batch simulator: threads);
#: more would only queue.
MAX_JOBS = 4096


_DIGITS = r"[0-9]+(?:_[0-9]+)*"  # ASCII digits, grouped by single underscores as Python allows
_WHOLE = re.compile(rf"[+-]?{_DIGITS}")


def integer(text: str) -> int:
    """A whole number option's value in ASCII digits (int() also took ' 2' and other scripts' digits, '２', which
    tile tokens refuse); '4_000_000' is fine."""
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    try:
        return int(text)
    except ValueError:  # past Python's limit on digits: argparse would say "invalid integer value" and echo them all
        digits = sum(c.isdigit() for c in text)  # counts written "4,300", as core.layouts.json_failure writes them
        raise argparse.ArgumentTypeError(f"{text[:12]}... ({digits:,} digits) is too long a number; "
                                         f"at most {sys.get_int_max_str_digits():,} digits") from None


_DECIMAL = re.compile(rf"[+-]?(?:{_DIGITS}(?:\.(?:{_DIGITS})?)?|\.{_DIGITS})(?:[eE][+-]?[0-9]+)?")


def decimal(text: str) -> float:
    """A number option's value in ASCII ('0.5', '2', '1e-3'): float() also took '２' and other scripts' digits,
    'nan' and 'inf', and made '1e400' inf, each then shown as a number the user never typed."""
    if not _DECIMAL.fullmatch(text):
        kind = "finite number" if text.strip().lstrip("+-").lower() in ("inf", "infinity", "nan") else "number"
        raise argparse.ArgumentTypeError(f"{text!r} is not a {kind}")
    value = float(text)
    if math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text!r} is too large a number")
    return value


def number_text(value: float) -> str:
    """A decimal option's value for a message, as typed in the usual case: 8761, not 8761.0; 1e+308 as Python
    writes it."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)


def _positive(text: str) -> int:
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value


def check_weights_name(option: str, path: str | None) -> None:
    """Refuse an empty weights file name (None: not given): the loader took it for the current folder and said
    "weights : not a regular file"."""
    if path is not None and not path.strip():
        raise InputError(f"{option}: give a file name (a weights.npz from takeiteasy train)")


def check_jobs(jobs: int | None) -> None:
    """Refuse a --jobs outside 1..:data:`MAX_JOBS` (None: not given)."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise InputError(f"--jobs {jobs}: must be 1 to {MAX_JOBS}")


def _refuse_a_second(parser, namespace, action, value, option_string) -> None:
    """An option given twice is a mistake, not a change of mind: argparse kept the last, so '--preset daffodil
    --placement adjacent --preset four-rounds' silently dropped the daffodil board (and '--seed 7 --seed 8'
    played seed 8)."""
    given = namespace.__dict__.setdefault("_given_options", set())
    if action.dest not in given:
        given.add(action.dest)
        return
    before = getattr(namespace, action.dest, None)
    name = next(o for o in action.option_strings if not o.startswith("--no-"))
    if isinstance(before, bool):  # a flag: name the two spellings given
        before, value = (f"--{'' if flag else 'no-'}{name[2:]}" for flag in (before, value))
    hint = ("; give one preset and add the other rules as options, e.g. --preset daffodil --rounds 4"
            if action.dest == "preset" else "; give it once")
    parser.error(f"{name}: given twice ({before}, then {value}){hint}")


class _StoreOnce(argparse._StoreAction):
    def __call__(self, parser, namespace, values, option_string=None):
        _refuse_a_second(parser, namespace, self, values, option_string)
        super().__call__(parser, namespace, values, option_string)


class _FlagOnce(argparse.BooleanOptionalAction):
    def __call__(self, parser, namespace, values, option_string=None):
        _refuse_a_second(parser, namespace, self, not option_string.startswith("--no-"), option_string)
        super().__call__(parser, namespace, values, option_string)


def store_each_once(parser: argparse.ArgumentParser) -> None:
    """Make every option of ``parser`` that stores a value refuse a second one (see ``_refuse_a_second``); lists
    (``--vs``, ``--other``) and plain flags (``--json`` twice says the same) stay as they are."""
    for action in parser._actions:
        if type(action) is argparse._StoreAction and action.option_strings:
            action.__class__ = _StoreOnce
        elif type(action) is argparse.BooleanOptionalAction:
            action.__class__ = _FlagOnce


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules (see takeiteasy variants and docs/RULES.md)")
    add_argument = group.add_argument

    def once(*names, **settings):  # every rule at most once (see _refuse_a_second)
        flag = settings.get("action") is argparse.BooleanOptionalAction
        add_argument(*names, **{**settings, "action": _FlagOnce if flag else _StoreOnce})

    group.add_argument = once  # type: ignore[method-assign]  # every rule below goes through once()
    group.add_argument("--preset", metavar="NAME",
                       help=f"start from a named preset: {', '.join(presets())} (default: standard)")
    group.add_argument("--options", dest="options_json", metavar="JSON|FILE.json",
                       help="start from an options JSON object, e.g. '{\"placement\": \"adjacent\"}'")
    group.add_argument("--board", metavar="NAME|FILE.json",
                       help=f"board layout: {', '.join(LAYOUT_NAMES)} or a layout file (default: standard)")
    group.add_argument("--placement",
                       help="placement rule: free (any empty cell), adjacent, or sunmoon (default: free)")
    group.add_argument("--scoring",
                       help="scoring rule: standard, sunrays (Sunrays and Moonbeams), best-sunray (default: standard)")
    group.add_argument("--stamen",
                       help="daffodil variants 1-4: free, first, last, holding (default: free)")
    group.add_argument("--wildcards", action=argparse.BooleanOptionalAction, default=None,
                       help="include the four wildcard tiles (default: only on the daffodil board)")
    group.add_argument("--symbols", metavar="FILE.json", help="sun/moon map of your own tile set (a file, or the map "
                                                             "itself as JSON text: '{\"symbols\": {\"574\": \"sun\"}}')")
    group.add_argument("--draw", type=_positive, metavar="N",
                       help="tiles turned over at a time; 2 is the easier game (default: 1)")
    group.add_argument("--caller", action=argparse.BooleanOptionalAction, default=None,
                       help="--no-caller: players take turns announcing a tile of their choice (default: caller)")
    group.add_argument("--takeback", action=argparse.BooleanOptionalAction, default=None,
                       help="tiles placed since the last draw may be moved (default: yes)")
    group.add_argument("--sunmoon-touch",
                       help="sunmoon placement: touch any placed tile, or the previous tile (default: placed)")
    group.add_argument("--rounds", type=_positive, metavar="N", help="rounds (boards) in a match (default: 1)")
    group.add_argument("--match",
                       help="total: highest running total wins; best-of: highest score takes each board")
    group.add_argument("--best-ray-ties",
                       help="best-sunray: equal best rays split 60, or compare next-best rays first (default: split)")
    group.add_argument("--solitaire", action=argparse.BooleanOptionalAction, default=None,
                       help="one player, playing to beat a personal best")


def json_kind(value) -> str:
    """What a JSON value is, in words: 'a list', 'a number', 'null'."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return kinds.get(type(value), "a number")



def check_option_types(data: dict, where: str) -> None:
    """Refuse an option of the wrong JSON type, as "--options: option draw: 1.0 is not a whole number"."""
    for f in fields(Options):
        expected = Options.type_refusal(f.name, data[f.name]) if f.name in data else None
        if expected is not None:
            raise RulesError(f"{where}: option {f.name}: {shown(data[f.name])} is not {expected}")


def _options_json(text: str) -> dict:
    if not text.strip():  # Path('') would be the working directory
        raise RulesError("--options: give a JSON object or a file holding one")
    source, where = text, "--options"
    if not text.lstrip().startswith("{"):
        where = f"--options {text}"  # a file: name it in the messages below
        try:
            source = read_text(text)
        except UnicodeDecodeError:
            raise RulesError(f"--options {text}: not UTF-8 text") from None
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            try:  # not a file: was it JSON, just not an object ('[1]')?
                inline = json.loads(text)
            except (ValueError, RecursionError):
                reason = getattr(exc, "strerror", None) or exc
                raise RulesError(f"--options {text}: cannot read it ({reason})") from None
            raise RulesError(f"--options: expected a JSON object of options, like '{{\"draw\": 2}}', not "
                             f"{json_kind(inline)}") from None
    data = read_json(source, where, RulesError)
    if not isinstance(data, dict):
        raise RulesError(f"{where}: expected a JSON object of options, not {json_kind(data)}")
    check_option_types(data, where)
    return data


def options_from_args(args: argparse.Namespace) -> Options:
    """Options from --preset / --options, then every explicitly given option."""
    base = preset(args.preset) if getattr(args, "preset", None) is not None else Options()  # '' is no preset name
    data = base.to_json()
    given = _options_json(args.options_json) if getattr(args, "options_json", None) is not None else {}
    data.update(given)
    for name in FIELDS:
        value = getattr(args, name, None)
        if value is not None:
            if name in given:  # as a flag given twice: which one was meant?
                flag = "--" + name.replace("_", "-")
                then = (f"--{'' if value else 'no-'}{flag[2:]}" if isinstance(value, bool) else f"{flag} {value}")
                raise RulesError(f"{flag}: given twice (in --options as {json.dumps(given[name])}, then {then}); "
                                 "give it once")
            data[name] = value
    return Options.from_json(data)


def rules_from_args(args: argparse.Namespace) -> Ruleset:
    rules = Ruleset.from_options(options_from_args(args))
    # a map no rule in play looks at would be ignored without a word (`tiles` shows it, so there it is used)
    if rules.options.symbols is not None and not rules.uses_symbols and getattr(args, "command", "") != "tiles":
        raise RulesError("--symbols: no rule in play looks at the suns and moons; add placement 'sunmoon' or "
                         "scoring 'sunrays' or 'best-sunray' (or see them with takeiteasy tiles --symbols)")
    return rules

"""``takeiteasy solve``: the best arrangement of known tiles, or the game's maximum score.

* ``solve --tiles "T1 T2 ..."``: best board for those tiles (``--all``: every best board).
* ``solve --fixed BOARD --tiles "..."``: keep a partly filled board and complete it as well as possible.
* ``solve -``: one tile set per line on standard input, one JSON line out each.
* ``solve --max``: the maximum over the whole tile set, with every board that reaches it.
* ``solve --random N --seed S`` (or ``--deals FILE``): the best score of each of the N draws that
  ``takeiteasy bench`` deals in series S (or of each deal in the file), summed up like a benchmark: the
  score of a player who knew every tile in advance, on the very deals the agents played.  ``--jobs J``
  or ``--ray ADDRESS`` spread the draws over processes or a Ray cluster.  Under best-sunray scoring each
  draw's best includes the Best Sunray/Moonbeam points a lone player takes, as bench counts them
  (:func:`~takeiteasy.solve.solver.solve_round_alone`); ``--tiles`` and ``-`` solve a board on its own score.

Under a placement rule (or a stamen rule the solve does not keep) the result is the best in any order, an upper
bound: the output says so (``"order_free": true``), and gives the best laid in order when there is one board.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Callable, Sequence

from ..core.deal import deal
from ..core.errors import InputError
from ..core.notation import format_board, parse_board, parse_tiles, plural
from ..core.rules import Options, Ruleset
from ..core.tiles import TOKENS
from ..solve import maximum, solve
from ..solve.solver import SolveError, any_order_allowed, solve_round_alone
from ._options import MAX_JOBS, add_rules_arguments, check_jobs, integer, rules_from_args
from ._stdin import stdin_lines


def register(sub) -> None:
    parser = sub.add_parser("solve", help="best arrangement of known tiles, or the maximum score (--max)",
                            description="Find the best arrangement of a known set of tiles (exact branch and "
                                        "bound), or the highest score of the game with --max.")
    parser.add_argument("source", nargs="?", metavar="-", help="'-': read one tile set per line from standard input (blank lines skipped)")
    parser.add_argument("--tiles", metavar="TILES", help='the tiles to place, e.g. "923 574 ..." (5-7-4 also works)')
    parser.add_argument("--fixed", metavar="BOARD", help="a board to keep (notation, '.' = empty); --tiles fill the rest")
    parser.add_argument("--max", action="store_true", help="the maximum over the whole tile set, with every board")
    parser.add_argument("--all", action="store_true", help="list every optimal board, not just one")
    parser.add_argument("--json", action="store_true", help="print JSON")
    many = parser.add_argument_group("many draws (the best score a player knowing every tile could reach)")
    many.add_argument("--random", type=integer, metavar="N",
                      help="solve the draws of games 0..N-1 of bench's series --seed and sum up their best scores")
    many.add_argument("--seed", type=integer, default=None, metavar="S", help="series seed for --random (default: 0)")
    many.add_argument("--deals", metavar="FILE", help="solve these deals instead (bench's format: one line each)")
    many.add_argument("--jobs", type=integer, default=None, metavar="J",
                      help=f"processes, 1 to {MAX_JOBS} (default: 1)")
    many.add_argument("--ray", metavar="ADDRESS", help="solve the draws as Ray tasks ('local', 'auto' or HOST:6379; "
                                                        "needs the [ray] extra); --jobs then counts the tasks at work "
                                                        "at once")
    add_rules_arguments(parser)
    parser.set_defaults(run=run)


def _fixed_board(rules: Ruleset, text: str | None):
    """The --fixed board, read once before any tile set (a bad one is not a fault of each line of a stream)."""
    if text is None:
        return None
    try:
        return parse_board(text, rules.layout, rules.tile_set)
    except InputError as exc:
        raise InputError(f"--fixed: {exc}") from None


def solve_record(rules: Ruleset, tiles_text: str, fixed=None, all_boards: bool = False,
                 where: str = "--tiles") -> dict:
    """The JSON record of one solved tile set, on the ``fixed`` board if given (raises InputError on bad input);
    ``where`` names the tiles' source in messages."""
    tiles = parse_tiles(tiles_text, rules.tile_set)
    if not tiles and fixed is None:
        raise SolveError("no tiles given")
    if fixed is not None:
        on_board = {int(t) for t in fixed if t >= 0}
        both = [t for t in tiles if t in on_board]
        if both:
            raise SolveError(f"duplicate tile: {TOKENS[both[0]]} is both on the --fixed board and in {where}")
    result = solve(rules, tiles, fixed=fixed, all=all_boards, allowed=any_order_allowed(rules, tiles, fixed))
    record = result.to_json(all_boards)
    if order_rule(rules) is not None:
        record["order_free"] = True
        if fixed is None and len(tiles) == rules.tiles_per_round:  # a whole round: its order is the one given
            record["in_order"] = in_order_record(rules, tiles)
    return record


def order_rule(rules: Ruleset, stamen_kept: bool = False) -> str | None:
    """The rule, in words ("adjacent placement"), under which the order the tiles come limits the boards and
    which the order-free solver does not apply; None if there is none.  ``stamen_kept``: the solver keeps the
    stamen rule as solve_round does, exactly when tiles come one at a time.  The holding area's rule (no
    wildcard on the stamen) holds whatever the order, and every solve keeps it (any_order_allowed)."""
    options = rules.options
    if options.placement != "free":
        return f"{options.placement} placement"
    if options.stamen in ("free", "holding") or (stamen_kept and options.draw == 1):
        return None
    return f"the stamen-{options.stamen} rule" + (f" with draws of {options.draw}" if stamen_kept else "")


def in_order_record(rules: Ruleset, drawn: list[int]) -> dict:
    """The best board laid with a round's tiles in this order under every rule, as the game's analysis finds it
    (solve_in_order: tens of milliseconds on the standard board); ``exact`` False when its search was cut short,
    the board then the best found and ``upper_bound`` what no board laid in this order beats."""
    from ..solve.analysis import best_possible

    best = best_possible(rules, drawn)
    return {"score": best["score"], "board": best["board"], "exact": best["reachable"],
            "upper_bound": best["upper_bound"]}


def order_note(rule: str, any_order: str, in_order: dict | None, order: str = "draw order") -> str:
    """The line saying that a result is the best in any order although ``rule`` depends on it: ``any_order`` is
    that result in words, ``in_order`` the best laid in ``order`` if known (else where to find it)."""
    note = f"note: under {rule} the order the tiles come limits the boards; {any_order} the best in any order, "
    if in_order is None:
        return note + ("an upper bound (takeiteasy analyse, and the analysis after each round of a game, give the "
                       "best in draw order)")
    best = (str(in_order["score"]) if in_order["exact"]
            else f"at least {in_order['score']}, at most {in_order['upper_bound']}")
    return note + f"and laid in {order} the best is {best}"


def max_record(rules: Ruleset) -> dict:
    result = maximum(rules, all=True)
    record = {"score": result.score, "count": len(result.boards), "boards": [format_board(b) for b in result.boards],
              "complete": result.complete}
    rotation = rules.layout.rotation180()
    if rotation is not None:
        keys = {tuple(b) for b in result.boards}
        classes = {min(tuple(b), tuple(b[list(rotation)])) for b in result.boards}
        record["closed_under_half_turn"] = all(tuple(b[list(rotation)]) in keys for b in result.boards)
        record["up_to_half_turn"] = len(classes)
    record["tile_sets"] = len({frozenset(int(t) for t in b) for b in result.boards})
    return record


def run(args) -> int:
    rules = rules_from_args(args)
    if args.random is not None or args.deals is not None:
        return _many(args, rules)
    for name in ("jobs", "ray"):
        if getattr(args, name) is not None:
            raise InputError(f"--{name} spreads --random or --deals draws; give one of those too")
    if args.seed is not None:
        raise InputError(f"--seed {args.seed} picks the series of --random N draws; give --random too")
    if args.source not in (None, "-"):
        raise InputError(f"unexpected argument {args.source!r}; give tiles with --tiles, or '-' to read standard input")
    if args.max:
        if args.tiles is not None or args.fixed is not None or args.source:
            raise InputError("--max takes the whole tile set: do not give --tiles, --fixed or '-'")
        record = max_record(rules)
        if args.json:
            print(json.dumps(record))
        else:
            at_least = "" if record["complete"] else "at least "  # the list stops at a cap
            print(f"maximum {record['score']}, reached by {at_least}{plural(record['count'], 'board')}"
                  + (f" ({record['up_to_half_turn']} up to a half turn)" if "up_to_half_turn" in record else "")
                  + f", using {at_least}{plural(record['tile_sets'], 'set of tiles', 'different sets of tiles')}"
                  + ("" if record["complete"] else " (list cut short)") + ":")
            for board in record["boards"]:
                print(board)
        return 0
    if args.source == "-":
        if args.tiles:
            raise InputError("give tiles either with --tiles or on standard input ('-'), not both")
        return _stream(rules, _fixed_board(rules, args.fixed), args.all)
    if args.tiles is None:
        raise InputError("no tiles: give --tiles \"T1 T2 ...\", '-' to read tile sets from standard input, or --max")
    record = solve_record(rules, args.tiles, _fixed_board(rules, args.fixed), args.all)
    if args.json:
        print(json.dumps(record))
        return 0
    print(f"score {record['score']}")
    for board in record.get("boards", [record["board"]]):
        print(board)
    if args.all:
        print(f"{plural(record['count'], 'optimal board')}"
              + ("" if record["complete"] else " (list cut short)"))
    rule = order_rule(rules)
    if rule is not None:  # the record says so ("order_free")
        in_order = record.get("in_order")
        print(order_note(rule, f"{record['score']} is", in_order, "the order given")
              + (":" if in_order else ""))
        if in_order:
            print(in_order["board"])
    return 0


def _stream(rules: Ruleset, fixed, all_boards: bool) -> int:
    """One JSON line out per line in; a bad line gives an error object in its place."""
    status = 0
    for number, line in stdin_lines():
        if not line.strip():
            continue
        try:
            record = solve_record(rules, line, fixed, all_boards, where="this line")
        except InputError as exc:
            record = {"line": number, "error": str(exc)}
            print(f"takeiteasy solve: error: line {number}: {exc}", file=sys.stderr)
            status = 2
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()
    return status


# --- many draws: the clairvoyant's score on a benchmark's deals ------------------

MAX_DRAWS = 10**7  # every score is kept in memory


#: the rules (as JSON) this process has solved its warm-up draw under
_warmed: set[str] = set()


def warm_up(rules: Ruleset, seed: int) -> None:
    """Solve one untimed draw under ``rules``, once per process: compiling or loading the solver's kernels is not
    solving time (a worker solves many pieces of a series, each of which used to pay for it)."""
    key = json.dumps(rules.options.to_json(), sort_keys=True)
    if key not in _warmed:
        solve_round_alone(rules, deal(seed ^ 0x5EED, rules.tile_set, rules.tiles_per_round))
        _warmed.add(key)


def _solve_chunk(options: dict, seed: int, indices: Sequence[int], deals: list[list[int]] | None,
                 progress: Callable[[int], None] | None = None):
    """Best scores of draws ``indices`` of series ``seed`` (or of ``deals``) for a lone player, round bonus
    included as bench's games count it; worker entry point.  ``progress(draws solved)`` after each draw (in this
    process only).  Returns (scores, seconds spent solving, compilation and loading excluded)."""
    rules = Ruleset.from_options(Options.from_json(options))
    warm_up(rules, seed)
    start, scores = time.perf_counter(), []
    for position, index in enumerate(indices):
        tiles = deals[position] if deals is not None else deal(seed, rules.tile_set, rules.tiles_per_round,
                                                               index=index)
        scores.append(solve_round_alone(rules, tiles).score)
        if progress is not None:
            progress(position + 1)
    return scores, time.perf_counter() - start


def _many(args, rules: Ruleset) -> int:
    from ..cluster import cluster_cpus, compile_here_first, pieces, spread
    from .bench import interval, read_deals, summarise

    solved = [0, 0]  # draws solved, of how many (once known): what a stop (Ctrl-C, SIGTERM) says
    args.stopped_at = lambda: f"after {solved[0]} of {solved[1]} draws" if solved[1] else "before the first draw"

    if args.tiles is not None or args.fixed is not None or args.source or args.max or args.all:
        raise InputError("--random and --deals solve whole draws: do not give --tiles, --fixed, '-', --max or --all")
    if args.random is not None and args.deals is not None:
        raise InputError("give either --random N or --deals FILE, not both")
    if args.deals is not None and args.seed is not None:
        raise InputError(f"--seed {args.seed} picks the series of --random N draws; --deals FILE gives its own")
    if args.seed is None:
        args.seed = 0
    if not rules.options.caller:
        raise InputError("with no caller the players choose the tiles, so there are no draws to solve "
                         "(--max gives the best board of the whole set)")
    check_jobs(args.jobs)
    deals = read_deals(args.deals, rules) if args.deals is not None else None
    count = len(deals) if deals is not None else args.random
    if not 1 <= count <= MAX_DRAWS:
        raise InputError(f"--random {count}: must be 1 to {MAX_DRAWS:,} (draws)")
    jobs = args.jobs or (cluster_cpus(args.ray) if args.ray is not None else 1)
    options = rules.options.to_json()
    work = [(options, args.seed, part, None if deals is None else deals[part.start:part.stop])
            for part in pieces(count, jobs, args.ray)]
    solved[1] = count
    if compile_here_first(args.ray, len(work)):
        warm_up(rules, args.seed)
    start = time.perf_counter()

    def progress(done: int) -> None:
        solved[0] = done

    results = spread(_solve_chunk, work, args.ray, progress=progress, count=lambda result: len(result[0]),
                     jobs=jobs)
    scores = [s for part, _ in results for s in part]
    report = summarise(scores) | {
        "seed": None if deals is not None else args.seed, "deals": args.deals, "jobs": jobs, "ray": args.ray,
        "options": options, "seconds": time.perf_counter() - start,
        "ms_per_draw": 1000 * sum(spent for _, spent in results) / count}
    bonus = getattr(rules.scoring, "round_bonus", False)
    if bonus:  # Best Sunray/Moonbeam: the lone player's 60s are in every score, as in bench's (solve_round_alone)
        report["round_bonus"] = True
    rule = order_rule(rules, stamen_kept=True)
    if rule is not None:
        report["order_free"] = True
        # one board: the best in draw order too, cheap enough (means over many keep the bound); not with a round
        # bonus, as the in-order search knows only a board's own score
        if count == 1 and not bonus:
            report["in_order"] = in_order_record(rules, deals[0] if deals is not None else
                                                 deal(args.seed, rules.tile_set, rules.tiles_per_round, index=0))
    if args.json:
        print(json.dumps(report))
        return 0
    where = f"deals file {args.deals}" if deals is not None else f"series {args.seed}"
    scatter = (f"{interval(report['ci95'], report['games'])}, sd {report['sd']:.1f}" if report["games"] > 1
               else interval(report["ci95"], 1, "draw"))
    print(f"best arrangement of {plural(count, 'draw')} ({where}): mean {report['mean']:.2f} {scatter}, "
          f"median {report['median']:g}, min {report['min']}, "
          f"max {report['max']}; {report['ms_per_draw']:.1f} ms per draw")
    if bonus:
        print("note: under best-sunray scoring each score includes the 60 points a lone player takes for a scoring "
              "row of suns and the 60 for a row of moons, as takeiteasy bench counts them")
    if rule is not None:
        print(order_note(rule, f"{report['max']} is" if count == 1 else "each score here is", report.get("in_order")))
    return 0


"""Draw and play variants: easier (two at a time), takeback, no caller, match formats, solitaire, and
every preset played to the end and saved."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from takeiteasy import Game, IllegalMove, InputError, Match, Options, Ruleset
from takeiteasy.ai import make_agent
from takeiteasy.store import Records
from takeiteasy.core.game import ScriptedPlayer
from takeiteasy.core.presets import preset, presets

EASIER = Ruleset.from_options(preset("easier"))
NO_CALLER = Ruleset.from_options(preset("no-caller"))


def test_rulebook_004_easier_two_tiles_at_a_time_the_19th_alone():
    """Rulebooks 001 and 004, Easier game: two tiles are drawn at a time; the 19th comes alone."""
    game = Game(EASIER, ["solo"], seed=3)
    sizes = []
    while not game.all_drawn:
        tiles = game.draw()
        sizes.append(len(tiles))
        for tile in reversed(tiles):  # any order the player likes
            game.place(0, game.view(0, tile).legal_cells()[0], tile)
    assert sizes == [2] * 9 + [1]


def test_rulebook_004_easier_must_place_both_before_the_next_draw():
    """Rulebook 004, Easier game: every player places both tiles before the next draw."""
    game = Game(EASIER, ["a", "b"], seed=3)
    first, second = game.draw()
    game.place(0, 0, second)
    game.place(1, 5)
    with pytest.raises(IllegalMove, match="every player must place"):
        game.draw()
    assert game.view(0).pending == (first,)


def test_rulebook_001_takeback_in_the_easier_game_moves_either_tile_until_the_next_draw():
    """Rulebook 001, moving a tile until the next call; easier game: either tile of the pair may move."""
    game = Game(EASIER, ["solo"], seed=3)
    first, second = game.draw()
    game.place(0, 0, first)
    game.place(0, 1, second)
    game.move(0, 5, first)
    game.move(0, 6)  # the last placed by default
    assert game.boards[0][5] == first and game.boards[0][6] == second and game.boards[0][0] == -1
    game.draw()
    with pytest.raises(IllegalMove, match="only a tile placed since the last draw"):
        game.move(0, 9, first)


def test_rulebook_000_no_takeback_option_refuses_moves():
    """Rulebook 000, "once a tile has been placed, it cannot be moved" (option takeback=false)."""
    game = Game(Ruleset.from_options(Options(takeback=False)), ["solo"], seed=3)
    game.draw()
    game.place(0, 0)
    with pytest.raises(IllegalMove, match="^no takeback"):
        game.move(0, 1)


def test_takeback_keeps_every_tile_of_the_draw_legal():
    """Rulebook 001 with adjacent placement: a move that would leave a later tile of the same draw
    untouching is refused."""
    rules = Ruleset.from_options(Options(placement="adjacent", draw=2))
    game = Game(rules, ["solo"], seed=5)
    first, second = game.draw()
    game.place(0, 0, first)
    game.place(0, 1, second)
    with pytest.raises(IllegalMove, match="would make .* illegal .*adjacent placement"):
        game.move(0, 18, first)
    game.move(0, 4, first)  # still touching cell 1


def test_rulebook_004_no_caller_players_take_turns_announcing():
    """Rulebook 004, No caller: players take turns choosing a tile from their remaining set; everyone places it."""
    game = Game(NO_CALLER, ["a", "b"], seed=1)
    assert game.chooser == 0
    with pytest.raises(IllegalMove, match="no caller: player 0 \\(a\\) must announce 1 tile"):
        game.draw()
    assert game.draw([26]) == [26]
    game.place(0, 0)
    game.place(1, 18)
    assert game.chooser == 1
    with pytest.raises(IllegalMove, match="not in the remaining set"):
        game.announce(26)
    assert game.announce(13) == [13]
    view = game.view(1)
    assert len(view.others) == 1 and view.others[0][0] == 26  # boards are visible to all


def test_rulebook_004_no_caller_agents_announce_with_a_hook_or_at_random():
    """Rulebook 004, No caller: Game.play asks an agent's announce hook, or picks a random remaining tile."""

    class Announcer:
        name = "announcer"

        def __init__(self):
            self.asked = 0

        def choose(self, view):
            return view.legal_cells()[0]

        def announce(self, view):
            self.asked += 1
            assert view.phase == "announce" and view.tile == -1
            return max(view.remaining)

    announcer = Announcer()
    game = Game(NO_CALLER, ["hook", "random"], seed=8)
    game.play([announcer, make_agent("random", NO_CALLER, 1)])
    assert game.finished and announcer.asked == 10
    assert game.announcers == [0, 1] * 9 + [0]
    again = Game(NO_CALLER, ["x", "y"], seed=8)
    again.play([make_agent("random", NO_CALLER, 1), make_agent("random", NO_CALLER, 2)])
    assert Game.from_json(again.to_json()).deal == again.deal


def test_rulebook_004_no_caller_a_game_given_its_tiles_replays_them():
    """Rulebook 004, No caller: a game given the tiles announced before (a replay) draws them instead of asking
    the agents again; the announcements start where the given tiles end."""
    first = Game(NO_CALLER, ["a", "b"], seed=3)
    first.play([make_agent("greedy", NO_CALLER, 1), make_agent("heuristic", NO_CALLER, 2)])
    replay = Game(NO_CALLER, ["a", "b"], deal=first.deal)
    replay.play([make_agent("greedy", NO_CALLER, 1), make_agent("heuristic", NO_CALLER, 2)])
    assert replay.drawn == first.drawn and replay.scores() == first.scores()
    partial = Game(NO_CALLER, ["a"], deal=first.deal[:5])
    partial.play([make_agent("heuristic", NO_CALLER, 2)])
    assert partial.finished and partial.drawn[:5] == first.deal[:5] and len(set(partial.drawn)) == 19


def test_rulebook_000_highest_score_wins_the_round_and_equal_scores_share_it():
    """Rulebook 000, The Winner: the highest final score wins the round; players with equal top scores share it."""
    rules = Ruleset.from_options()
    match = Match(rules, ["a", "b", "c"], rounds=1)
    match.results = [[120, 150, 90]]
    assert match.finished and match.winners == [1]
    match.results = [[150, 150, 90]]
    assert match.winners == [0, 1]
    played = Match(rules, ["a", "b"], rounds=1, seed=5)
    game = played.new_round()
    scores = game.play([ScriptedPlayer("a", list(range(19))), ScriptedPlayer("b", list(range(18, -1, -1)))])
    played.record(game)
    assert played.winners == [p for p in range(2) if scores[p] == max(scores)]


@pytest.mark.parametrize("placement", ["adjacent", "sunmoon"])
@pytest.mark.parametrize("scoring", ["sunrays", "best-sunray"])
def test_rulebook_000_any_placement_variant_combines_with_any_scoring_variant(placement, scoring):
    """Rulebook 000: the placement variants combine with the scoring variants.  Together they lay out a round
    as the placement variant alone does (the same cells allowed at every step) and score its boards as the
    scoring variant alone does, round bonus included."""
    both = Ruleset.from_options(Options(placement=placement, scoring=scoring))
    placing_only = Ruleset.from_options(Options(placement=placement))
    scoring_only = Ruleset.from_options(Options(scoring=scoring))
    choice = np.random.default_rng(sum(map(ord, placement + scoring)))
    game = Game(both, ["a", "b", "c"], seed=11)
    while not game.all_drawn:
        (tile,) = game.draw()
        for player in range(3):
            board, before = game.boards[player], (game.previous_tile(player), game.previous_cell(player))
            cells = game.view(player, tile).legal_cells()
            assert cells == np.flatnonzero(placing_only.legal_mask(board, tile, *before)).tolist()
            game.place(player, int(choice.choice(cells)))
    assert game.board_scores() == [scoring_only.score(board) for board in game.boards]
    assert game.round_bonuses() == scoring_only.round_bonuses(game.boards)
    assert game.scores() == [s + b for s, b in zip(game.board_scores(), game.round_bonuses())]


def test_rulebook_001_four_rounds_caller_rotates_and_totals_run():
    """Rulebook 001: four rounds, the caller rotating each round, running totals decide."""
    rules = Ruleset.from_options(preset("four-rounds"))
    match = Match(rules, ["a", "b", "c"], seed=2)
    callers = []
    while not match.finished:
        game = match.new_round()
        callers.append(game.caller)
        game.play([make_agent("greedy", rules, p) for p in range(3)])
        match.record(game)
    assert callers == [0, 1, 2, 0] and len(match.results) == 4
    assert match.totals == [sum(r[p] for r in match.results) for p in range(3)]
    assert match.winners == [p for p in range(3) if match.totals[p] == max(match.totals)]


def test_rulebook_001_best_of_three_highest_single_score_takes_a_board():
    """Rulebook 001, best of 3 boards: the highest score takes a board, nothing carries over; 2-0 ends it."""
    rules = Ruleset.from_options(preset("best-of-3"))
    match = Match(rules, ["a", "b"])
    match.results = [[100, 10]]
    assert not match.finished
    match.results.append([5, 0])  # a small win counts as much as a big one
    assert match.finished and match.boards_won == [2, 0] and match.winners == [0]
    match.results = [[50, 50], [60, 70], [80, 20]]  # a shared top score takes the board for nobody
    assert match.boards_won == [1, 1] and not match.finished
    match.results.append([10, 20])
    assert match.finished and match.winners == [1]


def test_rulebook_001_best_of_leaders_who_keep_tying_share_the_win_after_n_deciding_boards():
    """Rulebook 001, best of N boards (the tie-break is the project's choice, RULES.md): tied leaders play
    deciding boards, at most N; two copies of one AI tie on every board and used to play for ever."""
    rules = Ruleset.from_options(preset("best-of-3"))
    match = Match(rules, ["a", "b", "c"])
    match.results = [[90, 90, 10], [80, 80, 10], [70, 70, 10], [60, 60, 10], [50, 50, 10]]
    assert not match.finished  # three boards and two deciding ones, nobody has a board yet
    match.results.append([40, 40, 10])
    assert match.finished and match.winners == [0, 1, 2]  # nobody took a board: all three share
    match.results = [[90, 10, 10], [10, 90, 10], [50, 50, 10], [50, 50, 10], [50, 50, 10], [50, 50, 10]]
    assert match.finished and match.winners == [0, 1]  # the leaders share; the third has fewer boards
    twins = Match(rules, ["a", "b"], seed=3)
    twins.play([make_agent("greedy", rules, 0), make_agent("greedy", rules, 0)])
    assert len(twins.results) == 6 and twins.winners == [0, 1]


def test_rulebook_001_best_of_a_deciding_board_is_played_for_by_the_tied_leaders_alone():
    """Rulebook 001, best of N (RULES.md: leaders tied after N boards play deciding boards).  A player already out
    who scored highest took the deciding board: 1-1-1, and the match went on though one leader beat the other."""
    rules = Ruleset.from_options(preset("best-of-3"))
    match = Match(rules, ["ann", "bob", "carol"])
    match.results = [[150, 150, 100], [180, 120, 100], [100, 170, 100]]
    assert match.boards_won == [1, 1, 0] and not match.finished
    match.results.append([150, 140, 200])  # carol's 200 does not count: ann beat bob
    assert match.boards_won == [2, 1, 0] and match.finished and match.winners == [0]
    match.results[-1] = [150, 150, 200]  # the leaders tie again: nobody takes it, on to the next
    assert match.boards_won == [1, 1, 0] and not match.finished


def test_rulebook_004_solitaire_one_player_and_personal_best(tmp_path):
    """Rulebooks 000 and 004, solitaire: one player tries to beat a personal best, kept per ruleset."""
    rules = Ruleset.from_options(preset("solitaire"))
    with pytest.raises(InputError, match="solitaire is for one player"):
        Game(rules, ["a", "b"])
    Game(rules, ["a"]).play([make_agent("greedy", rules, 0)])
    records = Records(tmp_path / "scores.db")
    key = json.dumps(rules.options.to_json(), sort_keys=True)
    records.add("ann", key, 120, "")
    records.add("ann", key, 100, "")
    assert records.personal_best("ann", key) == 120


@pytest.mark.parametrize("name", list(presets()))
def test_every_preset_plays_to_the_end_and_round_trips(name):
    """Every preset: options survive JSON, Game.play finishes, and a saved game replays to the same result."""
    options = preset(name)
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options
    rules = Ruleset.from_options(options)
    count = 1 if options.solitaire else 2
    agents = [make_agent("greedy" if p == 0 else "random", rules, p) for p in range(count)]
    match = Match(rules, [f"p{p}" for p in range(count)], seed=4)
    while not match.finished:
        game = match.new_round()
        game.play(agents)
        assert game.finished
        assert all((b[: rules.layout.num_cells] >= 0).sum() >= rules.tiles_per_round - 3 for b in game.boards)
        saved = json.loads(json.dumps(game.to_json()))
        replayed = Game.from_json(saved)
        assert replayed.scores() == game.scores()
        assert all(np.array_equal(a, b) for a, b in zip(replayed.boards, game.boards))
        match.record(game)
    assert match.winners


def test_options_refuse_bad_values_with_a_named_option():
    """Options: a wrong value or type is refused with the option's name."""
    with pytest.raises(InputError, match="unknown placement 'diagonal'"):
        Options.from_json({"placement": "diagonal"})
    with pytest.raises(InputError, match="option draw: 'two' is not a whole number"):
        Options.from_json({"draw": "two"})
    with pytest.raises(InputError, match="needs a board with stamen cells"):
        Ruleset.from_options(Options(stamen="first"))
    with pytest.raises(InputError, match="unknown option 'colour'"):
        Options.from_json({"colour": "red"})


def test_scripted_player_still_drives_a_standard_game():
    """Backward compatibility: the standard game with a scripted player and Game.play."""
    rules = Ruleset.from_options()
    game = Game(rules, ["s"], seed=1)
    assert game.play([ScriptedPlayer("s", list(range(19)))]) == [rules.score(game.boards[0])]


@pytest.mark.parametrize("options, message", [
    (Options(sunmoon_touch="previous"), "option sunmoon-touch 'previous' is a rule of sun/moon placement"),
    (Options(placement="adjacent", sunmoon_touch="previous"), "add placement 'sunmoon' (placement is 'adjacent')"),
    (Options(best_ray_ties="next-best", scoring="sunrays"), "option best-ray-ties 'next-best' is a rule of "
                                                            "best-sunray scoring"),
    (Options(solitaire=True, caller=False), "solitaire with no caller: the lone player would choose every tile"),
    (Options(solitaire=True, rounds=3, match="best-of"), "solitaire with match 'best-of'"),
])
def test_combinations_that_mean_nothing_are_refused_not_ignored(options, message):
    """Rulebook 002 (touch the previous tile) and rulebook 000 (Best Sunray ties) refine one rule each: with
    that rule not in play the option was silently ignored.  Rulebook 004's no-caller game has the players
    announce for each other: alone, and playing for a personal best, a player just called the 307 set."""
    with pytest.raises(InputError, match=re.escape(message)):
        Ruleset.from_options(options)
    Ruleset.from_options(Options(placement="sunmoon", sunmoon_touch="previous"))  # with their rule, they stand
    Ruleset.from_options(Options(scoring="best-sunray", best_ray_ties="next-best"))
    Ruleset.from_options(Options(caller=False))  # a game without solitaire's personal best: e.g. the envs' puzzle
    Ruleset.from_options(Options(solitaire=True, rounds=3))


def test_rules_from_keywords_as_the_environments_take_them():
    """Rulebook 000's variants by keyword: ``Ruleset.from_options(placement="adjacent")`` was a TypeError while
    ``gym.make`` and ``parallel_env`` took the same keywords; a preset is a starting point for them."""
    from takeiteasy import preset as top_level_preset

    assert Ruleset.from_options(placement="adjacent").options == Options(placement="adjacent")
    both = Ruleset.from_options(top_level_preset("daffodil"), placement="adjacent", scoring="sunrays")
    assert both.options == Options(board="daffodil", placement="adjacent", scoring="sunrays")
    with pytest.raises(InputError, match="unknown option 'placment'; known options: best_ray_ties, board"):
        Ruleset.from_options(placment="adjacent")
    with pytest.raises(InputError, match="unknown placement 'adj'"):
        Ruleset.from_options(placement="adj")


def test_games_saved_before_the_refusals_load_and_replay_as_they_did():
    """An option of a rule not in play was ignored before it was refused (2026-11-26): a game saved then with
    sun/moon's 'previous' under free placement, or solitaire in a best-of match, still loads, the ignored option
    back at its default; as typed now, the same options are refused."""
    rules = Ruleset.from_options()
    game = Game(rules, ["ann"], seed=4)
    game.play([make_agent("greedy", rules, seed=1)])
    saved = game.to_json()
    for old in ({"sunmoon_touch": "previous"}, {"best_ray_ties": "next-best"}):
        record = json.loads(json.dumps(saved))
        record["options"] = {**record["options"], **old}
        loaded = Game.from_json(record)
        assert loaded.scores() == game.scores() and loaded.rules.options == rules.options
    stored = {"solitaire": True, "rounds": 3, "match": "best-of"}
    assert Options.from_json(stored, saved=True) == Options(rounds=3, match="best-of")
    with pytest.raises(InputError, match="solitaire with match 'best-of'"):
        Options.from_json(stored)

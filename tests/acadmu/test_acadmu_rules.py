"""One test (or a small group) per rule of ``shared/rules/acadmu.md``.

Each test states the rule it pins down and would fail if the engine played that rule another way.
Positions are written with :func:`pos` from pairing names, so the expectations read like the
rulebook rather than like index arithmetic.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from gamehall.ai import RandomAgent
from gamehall.core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    InvalidOptionError,
    find_game,
    play_game,
)
from gamehall.games.acadmu import DARK, LIGHT, PASS, AcadmuGame, Draw, Move, Pour, rules
from gamehall.games.acadmu.discs import default_disc_set, load_disc_set
from gamehall.games.acadmu.tokens import PAIRINGS, pairing_index

COLOURS = "RBY"
SHAPES = "TSC"
# Straight from the rulebook text, not from the engine's circles.
COLOUR_BEATS = {("R", "B"), ("B", "Y"), ("Y", "R")}
SHAPE_BEATS = {("T", "S"), ("S", "C"), ("C", "T")}


def counts(tokens: dict[str, int] | None = None) -> tuple[int, ...]:
    tokens = tokens or {}
    return tuple(tokens.get(name, 0) for name in PAIRINGS)


def pos(dark: dict[str, int], light: dict[str, int], to_move: str = "d", passed: str = "-") -> str:
    """A bare position in notation from ``{pairing name: count}`` dicts."""
    d = ",".join(map(str, counts(dark)))
    l_ = ",".join(map(str, counts(light)))
    return f"{d}/{l_} {to_move} {passed}"


def legal(game: AcadmuGame, text: str) -> set[str]:
    return {str(a) for a in game.parse_state(text).legal_actions()}


@pytest.fixture
def game() -> AcadmuGame:
    return find_game("acadmu")


# --- pieces ----------------------------------------------------------------------------------------


def test_default_set_has_27_discs():
    assert len(default_disc_set()) == 27
    assert len(find_game("acadmu").disc_set) == 27


def test_default_set_is_the_formula():
    """Disc (c, s, k) shows (c, s) on its front and (c+1, s+k) on its back."""
    expected = Counter()
    for c, s, k in itertools.product(range(3), range(3), range(3)):
        front = COLOURS[c] + SHAPES[s]
        back = COLOURS[(c + 1) % 3] + SHAPES[(s + k) % 3]
        expected[(pairing_index(front), pairing_index(back))] += 1
    assert Counter(default_disc_set().discs) == expected


def test_every_pairing_is_on_exactly_six_faces():
    faces = Counter()
    for front, back in default_disc_set().discs:
        faces[front] += 1
        faces[back] += 1
    assert [faces[p] for p in range(9)] == [6] * 9
    assert default_disc_set().faces == (6,) * 9


def test_no_disc_shows_the_same_pairing_twice():
    assert all(front != back for front, back in default_disc_set().discs)


def test_disc_set_loads_from_a_toml_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ndiscs = [["RT", "BS"], ["YC", "yc"], ["BS", "RT"]]\n')
    loaded = load_disc_set(path)
    assert loaded.name == "mine"
    assert loaded.discs == ((0, 4), (8, 8), (4, 0))
    game = find_game("acadmu", discs_file=str(path))
    assert game.disc_set.discs == loaded.discs
    # The pour now has three discs per side.
    state = game.parse_state("pour d 0-0")
    pour = state.sample_chance(random.Random(1))
    assert sum(pour.dark) == sum(pour.light) == 3


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('discs = [["RT", "BT"], ["RT", "QQ"]]\n', "disc 2"),
        ('discs = [["RT", "BT"], ["RT", "BS", "YC"]]\n', "disc 2"),
        ('discs = [["RT", "BT"], ["RT", "BS"], "RT:BS"]\n', "disc 3"),
        ('discs = [["RT", 3]]\n', "disc 1"),
        ("discs = []\n", "discs"),
        ('name = "no discs"\n', "discs"),
        ("discs = [[\n", "TOML"),
    ],
)
def test_bad_disc_files_are_rejected_naming_the_problem(tmp_path, content, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(InvalidOptionError, match=fragment):
        load_disc_set(path)
    with pytest.raises(InvalidOptionError, match=fragment):
        find_game("acadmu", discs_file=str(path))


def test_missing_disc_file_is_an_option_error(tmp_path):
    with pytest.raises(InvalidOptionError, match="cannot read"):
        find_game("acadmu", discs_file=str(tmp_path / "nowhere.toml"))


def test_non_utf8_disc_file_is_an_option_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "caf\xe9"\ndiscs = [["RT", "BT"]]\n'.encode("latin-1"))
    with pytest.raises(InvalidOptionError):
        load_disc_set(path)


def test_inline_disc_set_is_an_option(game):
    small = find_game("acadmu", discs="RT:BS,YC:RT")
    assert small.disc_set.discs == ((0, 4), (8, 0))
    with pytest.raises(InvalidOptionError, match="disc 2"):
        find_game("acadmu", discs="RT:BS,YC")


# --- who beats whom --------------------------------------------------------------------------------

PLENTY = {name: 2 for name in PAIRINGS}


@pytest.mark.parametrize("own", PAIRINGS)
@pytest.mark.parametrize("victim", PAIRINGS)
def test_one_by_colour(game, own, victim):
    """Red beats Blue, Blue beats Yellow, Yellow beats Red: one token, any shape."""
    moves = legal(game, pos({own: 1}, PLENTY))
    assert (f"{own}x{victim}" in moves) == ((own[0], victim[0]) in COLOUR_BEATS)


@pytest.mark.parametrize("own", PAIRINGS)
@pytest.mark.parametrize(
    "pair", [(a, b) for a, b in itertools.combinations_with_replacement(PAIRINGS, 2)]
)
def test_two_by_shape(game, own, pair):
    """Triangle beats Square, Square beats Circle, Circle beats Triangle: two tokens."""
    a, b = pair
    moves = legal(game, pos({own: 1}, PLENTY))
    allowed = (own[1], a[1]) in SHAPE_BEATS and (own[1], b[1]) in SHAPE_BEATS
    assert (f"{own}x{a}+{b}" in moves) == allowed


def test_red_triangle_examples(game):
    """The brief's examples: RT takes BS by colour but not YS; it takes two Squares by shape."""
    moves = legal(game, pos({"RT": 1}, {"BS": 1, "YS": 1}))
    assert moves == {"RTxBS", "RTxBS+YS"}
    state = game.parse_state(pos({"RT": 1}, {"BS": 1, "YS": 1}))
    with pytest.raises(IllegalActionError, match="Red does not beat Yellow"):
        state.apply(Move.parse("RTxYS"))


# --- choosing who plays first ----------------------------------------------------------------------


def draw(game: AcadmuGame, text: str):
    return game.new_initial_state().apply(game.parse_action(text))


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # colours decide, whatever the shapes say (Square would lose to Triangle)
        ("draw RS:BS/BT:YT", DARK),
        ("draw BT:YT/RS:BS", LIGHT),
        ("draw YC:RC/RT:BT", DARK),
        # equal colours: the shape that beats the other
        ("draw RT:BT/RS:BS", DARK),
        ("draw RS:BS/RT:BT", LIGHT),
        ("draw RC:BC/RT:BT", DARK),
        # both equal: flip and compare the other faces (colour first, then shape)
        ("draw RT:BT/RT:YT", DARK),
        ("draw RT:YT/RT:BT", LIGHT),
        ("draw RT:BT/RT:BS", DARK),
        ("draw RT:BS/RT:BT", LIGHT),
    ],
)
def test_first_player_draw(game, text, first):
    state = draw(game, text)
    assert state.phase == "pour"
    assert state.is_chance_node()
    assert str(state) == f"pour {'dl'[first]} 0-0"


def test_full_tie_means_draw_again(game):
    state = draw(game, "draw RT:BT/RT:BT")
    assert str(state) == "draw"
    assert state.is_chance_node()
    assert state.chance_outcomes() == game.new_initial_state().chance_outcomes()


def test_draw_chance_node(game):
    outcomes = game.new_initial_state().chance_outcomes()
    assert len(outcomes) == 2916  # 54 (up, down) faces per side, all distinct
    assert sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 54 * 54) for _, p in outcomes)
    # The draw is fair: Dark and Light go first equally often.
    first = Counter()
    for action, p in outcomes:
        after = game.new_initial_state().apply_trusted(action)
        first[after.to_move if after.phase == "pour" else "again"] += p
    assert first[DARK] == first[LIGHT]
    assert first["again"] == Fraction(54, 54 * 54)


def test_impossible_draw_is_rejected(game):
    """No default disc shows the same colour on both faces."""
    state = game.new_initial_state()
    impossible = Draw((pairing_index("RT"), pairing_index("RS")), (0, 3))
    assert state.chance_probability(impossible) == 0
    with pytest.raises(IllegalActionError):
        state.apply(impossible)


# --- the pour --------------------------------------------------------------------------------------


def test_pour_has_27_tokens_a_side(game):
    state = game.parse_state("pour l 3-4")
    rng = random.Random(5)
    for _ in range(20):
        pour = state.sample_chance(rng)
        assert isinstance(pour, Pour)
        assert sum(pour.dark) == sum(pour.light) == 27
        assert all(n <= 6 for n in pour.dark + pour.light)
        assert state.chance_probability(pour) > 0
        after = state.apply(pour)
        assert (after.dark, after.light, after.to_move, after.first) == (
            pour.dark,
            pour.light,
            LIGHT,
            LIGHT,
        )
        assert after.match_score == (3, 4)


def brute_force_pour(discs: tuple[tuple[int, int], ...]) -> dict[tuple[int, ...], Fraction]:
    """Every one of the 2^n face combinations, each with probability 1/2^n."""
    tally: Counter[tuple[int, ...]] = Counter()
    for ups in itertools.product((0, 1), repeat=len(discs)):
        c = [0] * 9
        for disc, up in zip(discs, ups, strict=True):
            c[disc[up]] += 1
        tally[tuple(c)] += 1
    return {k: Fraction(v, 2 ** len(discs)) for k, v in tally.items()}


@pytest.mark.parametrize(
    "inline",
    [
        "RT:BS,RT:BT,YC:RS",
        "RT:BS,BS:RT,RT:YC,YC:BS",
        "RT:RT,RT:BS,BS:YC",
        "YC:BS,YC:BS,RT:YC,BT:BS",
    ],
)
def test_pour_probability_is_exact(inline):
    game = find_game("acadmu", discs=inline)
    dist = brute_force_pour(game.disc_set.discs)
    assert sum(dist.values()) == 1
    state = game.parse_state("pour d 0-0")
    total = Fraction(0)
    for d, pd in dist.items():
        for l_, pl in dist.items():
            p = state.chance_probability(Pour(d, l_))
            assert p == pd * pl
            total += p
    assert total == 1
    # Every other count vector with the right total cannot happen.
    n = len(game.disc_set)
    for d in itertools.product(range(n + 1), repeat=9):
        if sum(d) == n and d not in dist:
            some = next(iter(dist))
            assert state.chance_probability(Pour(d, some)) == 0
            assert state.chance_probability(Pour(some, d)) == 0


@pytest.mark.parametrize("seed", range(6))
def test_a_pour_can_happen_exactly_when_its_probability_is_positive(seed):
    """The checked door asks whether a pour can happen by Hall's condition (quick for any
    disc set), never through its exact probability: both must agree, on small random sets
    against the brute force and on every count vector with the right total."""
    rng = random.Random(seed)
    discs = [(rng.randrange(9), rng.randrange(9)) for _ in range(rng.randint(3, 6))]
    inline = ",".join(f"{PAIRINGS[f]}:{PAIRINGS[b]}" for f, b in discs)
    disc_set = find_game("acadmu", discs=inline).disc_set
    possible = brute_force_pour(disc_set.discs)
    n = len(disc_set)
    for bars in itertools.combinations(range(n + 8), 8):  # every split of n tokens into 9
        edges = (-1, *bars, n + 8)
        counts = tuple(edges[i + 1] - edges[i] - 1 for i in range(9))
        assert disc_set.can_pour(counts) == (counts in possible), counts


def test_a_pour_of_a_large_disc_set_is_checked_at_once():
    """200 discs (the most a set may hold): the exact pour probability would take hours, but
    the checked door only asks whether the pour can happen."""
    rng = random.Random(3)
    inline = ",".join(
        f"{PAIRINGS[rng.randrange(9)]}:{PAIRINGS[rng.randrange(9)]}" for _ in range(200)
    )
    game = find_game("acadmu", discs=inline)
    state = game.parse_state("pour d 0-0")
    pour = state.sample_chance(rng)
    after = state.apply(pour)  # the checked door; would not finish through the probability
    assert sum(after.dark) == 200
    assert state.is_chance_outcome(pour)
    swapped = Pour(pour.dark[1:] + pour.dark[:1], pour.light)
    assert state.is_chance_outcome(swapped) == game.disc_set.can_pour(swapped.dark)


def test_impossible_pours_are_rejected(game):
    state = game.parse_state("pour d 0-0")
    good = state.sample_chance(random.Random(0))
    impossible = [
        Pour((7, 6, 6, 6, 2, 0, 0, 0, 0), good.light),  # 7 RT but only 6 faces show RT
        Pour((3,) * 8 + (2,), good.light),  # 26 tokens
        Pour(good.dark, (3,) * 8 + (4,)),  # 28 tokens
        # 6 RT and 6 BT need 12 discs, but only 11 discs show either
        Pour((6, 0, 0, 6, 3, 3, 3, 3, 3), good.light),
    ]
    for pour in impossible:
        assert state.chance_probability(pour) == 0
        with pytest.raises(IllegalActionError):
            state.apply(pour)
    with pytest.raises(IllegalActionError):
        state.apply(PASS)


# --- captures --------------------------------------------------------------------------------------


def test_by_colour_takes_exactly_one(game):
    """RC beats Blue by colour, but Circle does not beat Square: only one BS may go."""
    state = game.parse_state(pos({"RC": 1}, {"BS": 2}))
    assert legal(game, str(state)) == {"RCxBS"}
    with pytest.raises(IllegalActionError):
        state.apply(Move.parse("RCxBS+BS"))


def test_by_shape_takes_exactly_two_of_any_colours(game):
    moves = legal(game, pos({"BT": 1}, {"RS": 1, "BS": 1, "YS": 2}))
    assert moves == {"BTxYS", "BTxRS+BS", "BTxRS+YS", "BTxBS+YS", "BTxYS+YS"}
    assert "BTxRS+RS" not in moves  # only one Red Square


@pytest.mark.parametrize("taken", ["RS", "BS"])
def test_by_shape_may_not_take_one(game, taken):
    state = game.parse_state(pos({"BT": 1}, {"RS": 1, "BS": 1}))
    with pytest.raises(IllegalActionError):
        state.apply(Move.parse(f"BTx{taken}"))


def test_variant_lone_shape_capture():
    default = find_game("acadmu")
    variant = find_game("acadmu", shape_capture_takes_one_if_last=True)
    one_left = pos({"BT": 1}, {"RS": 1, "RC": 1})
    assert legal(default, one_left) == {"pass"}
    assert legal(variant, one_left) == {"BTxRS"}
    # Two of the beaten shape left: the lone take is still illegal; the pair is legal.
    two_left = pos({"BT": 1}, {"RS": 1, "BS": 1, "RC": 1})
    assert legal(variant, two_left) == {"BTxRS+BS"}
    with pytest.raises(IllegalActionError):
        variant.parse_state(two_left).apply(Move.parse("BTxRS"))


def test_moves_leaving_the_same_position_are_one_move():
    """Under the variant, RT takes a lone BS by colour and by shape: one move, listed once."""
    variant = find_game("acadmu", shape_capture_takes_one_if_last=True)
    actions = variant.parse_state(pos({"RT": 1}, {"BS": 1})).legal_actions()
    assert [str(a) for a in actions] == ["RTxBS"]
    rng = random.Random(2)
    for g in (find_game("acadmu"), variant):
        for _ in range(200):
            d = tuple(rng.randint(0, 3) for _ in range(9))
            l_ = tuple(rng.randint(0, 3) for _ in range(9))
            state = g.round_state(d, l_)
            actions = state.legal_actions()
            assert len(actions) == len(set(actions))
            results = [state.apply_trusted(a) for a in actions]
            assert len(results) == len(set(results))


# --- passing ---------------------------------------------------------------------------------------


def test_pass_is_the_only_move_without_a_capture(game):
    state = game.parse_state(pos({"BS": 2}, {"RT": 3}))
    assert state.legal_actions() == (PASS,)
    after = state.apply(PASS)
    assert str(after) == pos({"BS": 2}, {"RT": 3}, "l", "d")


def test_pass_is_illegal_with_a_capture(game):
    state = game.parse_state(pos({"RT": 3}, {"BS": 2}))
    with pytest.raises(IllegalActionError, match="pass"):
        state.apply(PASS)


def test_after_a_pass_the_opponent_moves_again(game):
    state = game.parse_state(pos({"BS": 2}, {"RT": 3})).apply(PASS)
    state = state.apply(Move.parse("RTxBS"))
    assert state.to_move == LIGHT and state.passed == DARK
    assert not state.is_terminal()
    state = state.apply(Move.parse("RTxBS"))
    assert state.is_terminal()
    assert state.returns() == (-1.0, 1.0)


def test_round_ends_when_neither_can_capture(game):
    """No pass is needed (or allowed) when neither side can capture."""
    state = game.parse_state(pos({"RC": 1}, {"RT": 1}))
    assert state.is_terminal()
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        state.apply(PASS)


def test_bare_round_returns_the_count_difference(game):
    state = game.parse_state(pos({"RT": 3, "RS": 1}, {"RT": 1}))
    assert state.current_player == TERMINAL
    assert state.returns() == (3.0, -3.0)
    outcome = state.outcome()
    assert (outcome.winner, outcome.scores) == (DARK, (3.0, 0.0))
    level = game.parse_state(pos({"RT": 2}, {"RT": 2}))
    assert level.returns() == (0.0, 0.0)
    assert level.outcome().winner is None


# --- scoring and the match -------------------------------------------------------------------------

OVER_DARK_3 = pos({"RT": 4}, {"RT": 1})  # round over, Dark leads by 3
OVER_LEVEL = pos({"RT": 2}, {"RT": 2})


def test_higher_count_scores_the_difference(game):
    state = game.parse_state(OVER_DARK_3 + " 4-7 l")
    assert state.current_player == CHANCE
    assert state.scores() == (7.0, 7.0)
    after = state.apply(state.sample_chance(random.Random(0)))
    assert after.match_score == (7, 7)


def test_equal_counts_score_nothing(game):
    state = game.parse_state(OVER_LEVEL + " 4-7 l")
    after = state.apply(state.sample_chance(random.Random(0)))
    assert after.match_score == (4, 7)


def test_first_player_alternates_by_round(game):
    for first, then in (("l", DARK), ("d", LIGHT)):
        state = game.parse_state(f"{OVER_LEVEL} 0-0 {first}")
        after = state.apply(state.sample_chance(random.Random(0)))
        assert after.first == then and after.to_move == then


@pytest.mark.parametrize(
    ("target", "score", "over"),
    [
        (12, "9-0", True),
        (12, "8-0", False),
        (12, "11-11", True),
        (18, "11-0", False),
        (3, "0-0", True),
    ],
)
def test_match_ends_when_a_total_reaches_the_target(target, score, over):
    game = find_game("acadmu", target=target)
    state = game.parse_state(f"{OVER_DARK_3} {score} l")
    assert state.is_terminal() == over
    if over:
        outcome = state.outcome()
        assert outcome.winner == DARK
        assert state.returns() == (1.0, -1.0)
        assert outcome.scores[0] >= target
    else:
        assert state.is_chance_node()


@pytest.mark.parametrize("target", [1, 12, 18, 24, 7, 100, "30"])
def test_any_positive_target(target):
    assert find_game("acadmu", target=target).target == int(target)


@pytest.mark.parametrize("target", [0, -12, "zero", "1.5", True])
def test_bad_targets_are_rejected(target):
    with pytest.raises(InvalidOptionError, match="target"):
        find_game("acadmu", target=target)


def test_a_whole_match_alternates_and_stops_at_the_target():
    game = find_game("acadmu", target=18)
    played = play_game(game, [RandomAgent(1), RandomAgent(2)], seed=11, max_actions=20_000)
    states = played.states
    # Index of every round's first state (just after its pour).
    starts = [
        i
        for i in range(1, len(states))
        if states[i].phase == "play" and isinstance(played.actions[i - 1], Pour)
    ]
    assert len(starts) >= 2
    draw_winner = next(s.to_move for s in states if s.phase == "pour")
    firsts = [states[i].first for i in starts]
    assert firsts == [(draw_winner + k) % 2 for k in range(len(starts))]
    assert all(max(states[i].match_score) < 18 for i in starts)
    final = played.final
    assert final.is_terminal()
    scores = final.outcome().scores
    assert max(scores) >= 18 > min(scores)
    # Each finished round adds its count difference to the leader's total.
    for i, j in itertools.pairwise(starts):
        ended = states[j - 1]
        assert ended.phase == "play" and ended.is_chance_node()
        diff = ended.round_difference()
        before, after = states[i].match_score, states[j].match_score
        assert after == (before[0] + max(diff, 0), before[1] + max(-diff, 0))


# --- facts: potential ------------------------------------------------------------------------------


def shape_total(c: tuple[int, ...], shape: int) -> int:
    return sum(c[colour * 3 + shape] for colour in range(3))


def independent_potential(own: tuple[int, ...], opponent: tuple[int, ...]) -> int:
    return sum(min(shape_total(own, s), shape_total(opponent, (s + 1) % 3) // 2) for s in range(3))


@cache
def solve(text: str) -> int:
    """Minimax value of a bare position: the final count difference, Dark maximising."""
    state = _GAME.parse_state(text)
    if state.is_terminal():
        return state.round_difference()
    values = [solve(str(state.apply_trusted(a))) for a in state.legal_actions()]
    return max(values) if state.to_move == DARK else min(values)


_GAME = AcadmuGame()


def small_positions(seed: int, n: int, most: int = 2) -> list[tuple[tuple[int, ...], ...]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        d = [0] * 9
        l_ = [0] * 9
        for side in (d, l_):
            for _ in range(rng.randint(1, 6)):
                side[rng.randrange(9)] += 1
        if max(d + l_) <= most + 2:
            out.append((tuple(d), tuple(l_)))
    return out


def test_potential_is_the_rulebook_formula():
    rng = random.Random(4)
    for _ in range(500):
        a = tuple(rng.randint(0, 6) for _ in range(9))
        b = tuple(rng.randint(0, 6) for _ in range(9))
        assert rules.potential(a, b) == independent_potential(a, b)


@pytest.mark.slow  # 300 plain-minimax solves in pure Python
def test_solved_value_lies_within_the_potential_bound():
    for d, l_ in small_positions(7, 150):
        for to_move in "dl":
            text = f"{','.join(map(str, d))}/{','.join(map(str, l_))} {to_move} -"
            value = solve(text)
            diff = sum(d) - sum(l_)
            assert diff - rules.potential(l_, d) <= value <= diff + rules.potential(d, l_), text


def test_after_a_pass_the_rest_is_worth_the_movers_potential():
    checked = 0
    for d, l_ in small_positions(8, 400):
        for mover, passer in (("d", "l"), ("l", "d")):
            own, other = (d, l_) if mover == "d" else (l_, d)
            if rules.can_capture(other, own):
                continue
            text = f"{','.join(map(str, d))}/{','.join(map(str, l_))} {mover} {passer}"
            value = solve(text)
            diff = sum(d) - sum(l_)
            sign = 1 if mover == "d" else -1
            assert value == diff + sign * rules.potential(own, other), text
            checked += 1
    assert checked > 50

"""Invariants of Äcädmü, checked by Hypothesis over random positions, pours and games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gamehall.ai import RandomAgent
from gamehall.core import (
    GamehallError,
    IllegalActionError,
    InvalidStateError,
    Record,
    find_game,
    make_record,
    play_game,
)
from gamehall.games.acadmu import DARK, LIGHT, PASS, AcadmuGame, Move, rules

GAMES = {
    "default": AcadmuGame(),
    "lone": AcadmuGame(shape_capture_takes_one_if_last=True),
}


DISCS = AcadmuGame().disc_set.discs


def _showing(faces: int, kept: int) -> tuple[int, ...]:
    """The up-faces of the kept discs: always a side that distinct discs can show."""
    counts = [0] * 9
    for i, (front, back) in enumerate(DISCS):
        if kept >> i & 1:
            counts[back if faces >> i & 1 else front] += 1
    return tuple(counts)


side_counts = st.builds(_showing, st.integers(0, 2**27 - 1), st.integers(0, 2**27 - 1))


@st.composite
def positions(draw: st.DrawFn, variant: str = "default"):
    """A valid bare or in-match position (not necessarily reachable from a pour)."""
    game = GAMES[variant]
    dark, light = draw(side_counts), draw(side_counts)
    to_move = draw(st.sampled_from("dl"))
    other = "l" if to_move == "d" else "d"
    own, opp = (dark, light) if to_move == "d" else (light, dark)
    can_pass_mark = not rules.can_capture(opp, own, take_one_if_last=game.take_one_if_last)
    passed = draw(st.sampled_from(["-", other])) if can_pass_mark else "-"
    text = f"{','.join(map(str, dark))}/{','.join(map(str, light))} {to_move} {passed}"
    if draw(st.booleans()):
        a, b = draw(st.integers(0, game.target - 1)), draw(st.integers(0, game.target - 1))
        in_match = f"{text} {a}-{b} {draw(st.sampled_from('dl'))}"
        try:
            return game.parse_state(in_match)
        except InvalidStateError:
            pass  # these counts cannot follow a full pour: keep the bare position
    return game.parse_state(text)


any_position = st.sampled_from(list(GAMES)).flatmap(positions)


def from_pour(seed: int, variant: str = "default"):
    game = GAMES[variant]
    state = game.parse_state(f"pour {'dl'[seed % 2]} 0-0")
    return state.apply(state.sample_chance(random.Random(seed)))


@given(any_position)
def test_every_legal_move_shrinks_the_sides_as_the_rules_say(state):
    if state.is_terminal() or state.is_chance_node():
        return
    mover = state.to_move
    for move in state.legal_actions():
        after = state.apply(move)
        assert all(
            a <= b for a, b in zip(after.dark + after.light, state.dark + state.light, strict=True)
        )
        own_lost = sum(state.tokens(mover)) - sum(after.tokens(mover))
        opp_lost = sum(state.tokens(1 - mover)) - sum(after.tokens(1 - mover))
        if move == PASS:
            assert (own_lost, opp_lost) == (0, 0)
            assert (after.to_move, after.passed) == (1 - mover, mover)
        else:
            assert own_lost == 1
            assert opp_lost == len(move.taken)
            assert opp_lost in (1, 2)
            assert state.tokens(mover)[move.own] - after.tokens(mover)[move.own] == 1
            # by colour: exactly one; by shape: two (or the variant's lone take)
            if not move.by_shape:
                assert len(move.taken) == 1
            elif len(move.taken) == 1:
                assert state.game.take_one_if_last
            if not state.game.take_one_if_last:
                assert move.by_shape == (opp_lost == 2)


@given(any_position)
@settings(max_examples=50)
def test_every_legal_move_keeps_the_state_valid(state):
    if state.is_terminal() or state.is_chance_node():
        return
    game = state.game
    for move in state.legal_actions():
        after = state.apply(move)
        after.validate()
        again = game.parse_state(str(after))
        assert again == after
        assert str(again) == str(after)
        assert again.current_player == after.current_player


@given(any_position)
def test_pass_iff_no_capture(state):
    if state.is_terminal() or state.is_chance_node():
        return
    own, opp = (state.dark, state.light) if state.to_move == DARK else (state.light, state.dark)
    captures = rules.captures(own, opp, take_one_if_last=state.game.take_one_if_last)
    assert bool(captures) == rules.can_capture(
        own, opp, take_one_if_last=state.game.take_one_if_last
    )
    assert (state.legal_actions() == (PASS,)) == (not captures)


@given(any_position, st.integers(0, 135))
def test_illegal_actions_raise_and_change_nothing(state, index):
    game = state.game
    action = game.index_action(index)
    assume(action not in state.legal_actions())
    before = str(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert str(action) in str(info.value)
    with pytest.raises(IllegalActionError):
        state.parse_action(str(action))
    assert str(state) == before
    assert game.parse_state(before) == state


@given(st.integers(0, 2**32), st.sampled_from(list(GAMES)))
@settings(max_examples=40, deadline=None)
def test_round_score_is_the_difference_of_shape_captures(seed, variant):
    """A colour capture trades one for one, a shape capture one for two."""
    state = from_pour(seed, variant)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    shape_captures = [0, 0]
    for _ in range(60):  # at most 54 captures and one pass
        if state.phase != "play" or state.round_over:
            break
        move = agents[state.current_player].choose(state)
        if len(move.taken) == 2:
            shape_captures[state.to_move] += 1
        state = state.apply(move)
    assert state.round_over
    assert state.round_difference() == shape_captures[DARK] - shape_captures[LIGHT]


@given(st.integers(0, 2**32))
@settings(max_examples=20, deadline=None)
def test_counts_never_rise_over_a_match(seed):
    game = GAMES["default"]
    played = play_game(
        game, [RandomAgent(seed), RandomAgent(seed + 7)], seed=seed, max_actions=20_000
    )
    for before, action, after in zip(
        played.states, played.actions, played.states[1:], strict=False
    ):
        if isinstance(action, Move):
            assert (
                sum(after.dark) + sum(after.light) < sum(before.dark) + sum(before.light)
                or action == PASS
            )
            assert after.match_score == before.match_score
        assert after.match_score[0] >= before.match_score[0]
        assert after.match_score[1] >= before.match_score[1]


@given(
    st.integers(0, 2**32),
    st.sampled_from([{}, {"target": 3}, {"discs": "RT:BS,BS:YC,YC:RT,RS:BT", "target": 4}]),
)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_records_round_trip(seed, options):
    game = find_game("acadmu", **options)
    played = play_game(game, [RandomAgent(seed), RandomAgent(~seed)], seed=seed, max_actions=20_000)
    assert played.final.is_terminal()
    record = make_record(
        game, played.actions, players=["random", "random"], seed=seed, final=played.final
    )
    text = str(record)
    parsed = Record.parse(text)
    assert parsed.tags == record.tags
    assert parsed.actions == [str(a) for a in played.actions]
    assert str(parsed) == text
    assert parsed.game() == game
    replayed = parsed.replay()
    assert len(replayed) == len(played.states)
    for mine, theirs in zip(replayed, played.states, strict=True):
        assert mine == theirs
        assert str(mine) == str(theirs)


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60))
def test_reading_any_ascii_text_fails_only_with_gamehall_errors(text):
    game = GAMES["default"]
    for read in (game.parse_state, game.parse_action):
        try:
            value = read(text)
        except GamehallError:
            continue
        if read is game.parse_state:
            assert game.parse_state(str(value)) == value
        else:
            assert game.parse_action(str(value)) == value


@given(
    st.lists(st.integers(0, 2), min_size=9, max_size=9),
    st.lists(st.integers(0, 2), min_size=9, max_size=9),
    st.sampled_from("dl"),
)
def test_positions_in_notation_round_trip(dark, light, to_move):
    game = GAMES["default"]
    text = f"{','.join(map(str, dark))}/{','.join(map(str, light))} {to_move} -"
    state = game.parse_state(text)
    assert str(state) == text
    assert state.to_move == (DARK if to_move == "d" else LIGHT)

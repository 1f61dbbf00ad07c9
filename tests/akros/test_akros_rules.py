"""One test per rule of shared/rules/akros.md, each failing if that rule were played otherwise."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from akros_helpers import example_game, position, random_game

from gamehall.core import CHANCE, IllegalActionError
from gamehall.games.akros import AkrosGame, Draw, Keep, KeepDiscard, Place, Remove
from gamehall.games.akros.rules import (
    DRAW,
    FOREST,
    IFRIT,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN,
    JINN_KEEP,
    JINN_PLACE,
    MOUNTAIN,
    OVER,
    SEA,
    draw_outcomes,
)

F, S, M = FOREST, SEA, MOUNTAIN
DAWN = AkrosGame()


# --- words: contested, Ifrit move, Jinn move ------------------------------------------------------


def test_contested_needs_two_ifrit_neighbours():
    # Dawn start, Ifrit on 5, 10, 11, 14: 6 touches 5, 10, 11; 9 touches 5, 10, 14; 10 touches 5,
    # 11, 14; 15 touches 10, 11, 14. Region 1 touches only 5; 5 touches only 10.
    state = DAWN.new_initial_state()
    assert state.contested() == {6, 9, 10, 15}


def test_contested_is_exactly_the_definition():
    for seed in range(5):
        for state in random_game(seed)[0]:
            board = state.board
            expected = {
                r.id for r in board.regions if sum(n in state.ifrit for n in r.neighbours) >= 2
            }
            assert state.contested() == expected


def test_contested_follows_the_ifrit_servants_now():
    state = position(DAWN, ifrit=(1, 3, 17, 19))  # 2 touches 1 and 3; 18 touches 17 and 19
    assert state.contested() == {2, 18}
    moved = position(DAWN, ifrit=(4, 3, 17, 19))
    assert 2 not in moved.contested()


def test_ifrit_moves_one_step_to_an_adjacent_unoccupied_region():
    # Ifrit on 1, 5, 8, 12 with a Forest: 4 and 11 are a step away, 14 and 18 are not, 7 is taken.
    state = position(
        DAWN, step=IFRIT_PLACE, jinn_tile=F, ifrit_tile=F, ifrit=(1, 5, 8, 12), jinn=(2, 3, 7, 13)
    )
    assert state.legal_actions() == (
        Place(F, 4, 1),
        Place(F, 4, 5),
        Place(F, 4, 8),
        Place(F, 11, 12),
    )
    legal = state.legal_actions()
    assert Place(F, 4, 5) in legal
    assert all(p.region in state.board.regions[p.source - 1].neighbours for p in legal)
    assert not any(p.region in (7, 14, 18) for p in legal)
    assert "cannot reach 14 in one step" in state.explain_illegal(Place(F, 14, 5))
    assert state.explain_illegal(Place(F, 7, 12)) == "region 7 is occupied"


def test_ifrit_may_move_onto_a_contested_region():
    # 9 (Sea) touches 8 and 13, both Ifrit: contested, yet the Ifrit on 8 may step onto it.
    state = position(
        DAWN, step=IFRIT_PLACE, jinn_tile=S, ifrit_tile=S, ifrit=(8, 13, 1, 12), jinn=(2, 3, 7, 19)
    )
    assert 9 in state.contested()
    assert Place(S, 9, 8) in state.legal_actions()


def test_jinn_moves_to_any_unoccupied_uncontested_region():
    # Jinn servant on 19 may jump to far-away Forest 4; the contested Forest 5 is refused.
    state = position(DAWN, step=JINN_PLACE, jinn_tile=F, ifrit=(1, 9, 12, 17), jinn=(2, 3, 16, 19))
    contested = state.contested()
    assert 5 in contested and 4 in contested and 14 in contested
    legal = set(state.legal_actions())
    assert Place(F, 7, 19) in legal and Place(F, 11, 19) in legal and Place(F, 18, 2) in legal
    assert not any(p.region in contested for p in legal)
    assert state.explain_illegal(Place(F, 5, 19)) == "region 5 is contested"


def test_jinn_servant_on_contested_region_must_move_first():
    # Jinn on 6 (touches Ifrit 5 and 11): contested, so it is the only one that may move.
    state = position(DAWN, step=JINN_PLACE, jinn_tile=F, jinn=(6, 13, 17, 19))
    assert 6 in state.contested()
    legal = state.legal_actions()
    assert legal and all(p.source == 6 for p in legal)
    assert "contested region 6 must move first" in state.explain_illegal(Place(F, 7, 13))


def test_tile_environment_must_match_the_region():
    state = position(DAWN, step=JINN_PLACE, jinn_tile=M, jinn=(2, 7, 13, 18))
    assert all(state.board.environment_of(p.region) == M for p in state.legal_actions())
    assert state.explain_illegal(Place(M, 4, 2)) == "region 4 is Forest, the tile is Mountain"
    assert "tile is Mountain, not Forest" in state.explain_illegal(Place(F, 4, 2))


# --- placing and removing -------------------------------------------------------------------------


def test_ifrit_tile_with_no_place_is_removed():
    # Mountains next to Ifrit servants on 4, 5, 9, 14: 1, 8, 10, 17 - all taken by the Jinn.
    state = position(
        DAWN, step=IFRIT_PLACE, jinn_tile=F, ifrit_tile=M, ifrit=(4, 5, 9, 14), jinn=(1, 8, 10, 17)
    )
    assert state.legal_actions() == (Remove(M),)
    after = state.apply(Remove(M))
    assert (
        after.removed == (0, 0, 1) and after.ifrit == state.ifrit and after.stacks == state.stacks
    )
    assert after.step == JINN_PLACE


def test_jinn_tile_with_no_place_is_removed_and_no_servant_moves():
    # Every Sea (2, 6, 9, 13, 15, 16) is occupied: Ifrit on 2, 6, 9, 13 and Jinn on 15, 16.
    state = position(DAWN, step=JINN_PLACE, jinn_tile=S, ifrit=(2, 6, 9, 13), jinn=(5, 15, 16, 19))
    assert 5 in state.contested()  # the Jinn on 5 stands contested, but cannot move anywhere
    assert state.legal_actions() == (Remove(S),)
    after = state.apply(Remove(S))
    assert after.jinn == state.jinn and after.removed == (0, 1, 0) and after.turn == 2
    assert "must be removed" in state.explain_illegal(Place(S, 15, 5))


def test_remove_is_refused_when_the_tile_can_be_placed():
    state = position(DAWN, step=JINN_PLACE, jinn_tile=M, jinn=(2, 7, 13, 18))
    with pytest.raises(IllegalActionError, match="removed only when it cannot"):
        state.apply(Remove(M))


# --- the draft and the Temple ---------------------------------------------------------------------


def test_turn_order_jinn_keeps_ifrit_keeps_ifrit_places_jinn_places():
    states, _ = random_game(1)
    order = [(s.step, s.current_player) for s in states[:6]]
    assert order == [
        (DRAW, CHANCE), (JINN_KEEP, JINN), (IFRIT_KEEP, IFRIT), (IFRIT_PLACE, IFRIT),
        (JINN_PLACE, JINN), (DRAW, CHANCE),
    ]  # fmt: skip


def test_draws_are_hypergeometric_multisets():
    outcomes = dict(draw_outcomes((6, 6, 7)))
    assert len(outcomes) == 10
    assert outcomes[Draw((F, F, F))] == Fraction(comb(6, 3), comb(19, 3))
    assert outcomes[Draw((F, S, M))] == Fraction(6 * 6 * 7, comb(19, 3))
    assert sum(outcomes.values()) == 1
    assert dict(draw_outcomes((0, 1, 3))) == {
        Draw((S, M, M)): Fraction(3, 4),
        Draw((M, M, M)): Fraction(1, 4),
    }


def test_jinn_keeps_one_and_the_ifrit_keeps_one_and_discards_the_other():
    state = DAWN.new_initial_state().apply(Draw((F, S, M)))
    assert state.legal_actions() == (Keep(F), Keep(S), Keep(M))
    state = state.apply(Keep(S))
    assert state.jinn_tile == S and state.draft == (F, M)
    assert state.legal_actions() == (KeepDiscard(F, M), KeepDiscard(M, F))
    state = state.apply(KeepDiscard(M, F))
    assert state.ifrit_tile == M and state.temple == ((F,), (), ())


@pytest.mark.parametrize("seed", range(4))
def test_temple_piles_per_turn(seed):
    states, actions = random_game(seed)
    piles = {7: [], 8: [], 9: []}
    for before, action in zip(states, actions, strict=False):
        if isinstance(action, KeepDiscard):
            pile = 7 if before.turn <= 3 else 8 if before.turn <= 6 else 9
            piles[pile].append(action.discard)
    for state in states:
        if state.step == JINN_KEEP and state.turn >= 7:
            assert state.draft == tuple(sorted(piles[state.turn]))
            assert len(state.draft) == (2 if state.turn == 9 else 3)
        if state.step == JINN_KEEP and state.turn == 6:
            assert len(state.temple[0]) == 3 and len(state.temple[1]) == 2


def test_turn_nine_the_ifrit_keeps_her_lone_tile():
    states, _ = random_game(2)
    ninth = next(s for s in states if s.turn == 9 and s.step == IFRIT_KEEP)
    assert len(ninth.draft) == 1
    assert ninth.legal_actions() == (Keep(ninth.draft[0]),)
    after = ninth.apply(Keep(ninth.draft[0]))
    assert after.temple == ((), (), ()) and after.ifrit_tile == ninth.draft[0]


def test_the_last_bag_tile_is_removed_after_turn_six():
    states, _ = random_game(3)
    before = next(s for s in states if s.turn == 6 and s.step == JINN_PLACE)
    after = next(s for s in states if s.turn == 7)
    assert sum(before.bag) == 1
    left = before.bag.index(1)
    assert after.bag == (0, 0, 0)
    assert after.removed[left] == before.removed[left] + 1 + (
        before.legal_actions()[0] == Remove(left)
    )
    assert after.step == JINN_KEEP and not after.is_chance_node()


def test_phase_two_has_no_chance():
    states, _ = random_game(4)
    assert not any(s.is_chance_node() for s in states if s.turn >= 7)
    assert sum(1 for s in states if s.is_chance_node()) == 6


# --- the end --------------------------------------------------------------------------------------


def over(game=DAWN, **changes):
    return position(game, turn=9, step=OVER, bag=(0, 0, 0), **changes)


def test_servant_scores_one_plus_its_stack():
    stacks = [0] * 19
    stacks[3] = 2  # region 4, Forest
    state = over(stacks=tuple(stacks), jinn=(4, 2, 13, 18), ifrit=(5, 10, 11, 14))
    forest = state.environment_scores()[F]
    assert forest.jinn == (1 + 2) + 1  # 4 and 18
    assert forest.ifrit == 1 + 1 + 1  # 5, 11, 14


def test_example_d_equal_forest_scores_claim_nothing():
    # Jinn: a servant on a Forest of 2 tiles and one on a bare Forest; Ifrit: one on 3 tiles.
    stacks = [0] * 19
    stacks[4 - 1], stacks[11 - 1] = 2, 3
    state = over(stacks=tuple(stacks), jinn=(4, 7, 2, 13), ifrit=(11, 1, 3, 8))
    forest = state.environment_scores()[F]
    assert (forest.jinn, forest.ifrit, forest.claimed_by) == (4, 4, None)


def test_higher_score_claims_the_environment():
    state = over(jinn=(4, 7, 2, 13), ifrit=(5, 1, 3, 8))  # Forest 2-1, Sea 2-0, Mountain 0-3
    claims = [s.claimed_by for s in state.environment_scores()]
    assert claims == [JINN, JINN, IFRIT]
    assert state.outcome().winner == JINN and state.returns() == (1.0, -1.0)
    assert state.outcome().scores == (2.0, 1.0)


def test_ifrit_wins_one_one():
    state = over(jinn=(4, 7, 2, 1), ifrit=(6, 9, 3, 8))  # F 2-0, S 1-2, M 1-2 -> 1-2: Ifrit
    assert state.claims() == (1, 2)
    state = over(jinn=(4, 2, 1, 3), ifrit=(5, 6, 8, 12))  # F 1-1, S 1-1, M 2-2: 0-0
    assert state.claims() == (0, 0)
    assert state.outcome().winner == IFRIT and state.returns() == (-1.0, 1.0)
    assert "go to the Ifrit" in state.outcome().reason
    state = over(jinn=(4, 7, 2, 1), ifrit=(5, 6, 9, 8))  # F 2-1 Jinn, S 1-2 Ifrit, M 1-1
    assert state.claims() == (1, 1)
    assert state.outcome().winner == IFRIT


def test_returns_are_zero_before_the_end():
    assert DAWN.new_initial_state().returns() == (0.0, 0.0)
    assert DAWN.new_initial_state().outcome() is None


# --- the rulebook's examples B and C, on a board built for them ----------------------------------


def test_example_b_ifrit_places_a_mountain():
    game = example_game()
    state = position(game, step=IFRIT_PLACE, jinn_tile=M, ifrit_tile=M)
    assert state.legal_actions() == (Place(M, 5, 10), Place(M, 6, 11))
    assert "occupied" in state.explain_illegal(Place(M, 1, 11))
    assert "cannot reach 4" in state.explain_illegal(Place(M, 4, 10))
    after = state.apply(Place(M, 5, 10))
    assert after.contested() == {1, 3, 7, 8, 9}


def test_example_c_jinn_places_a_mountain():
    game = example_game()
    state = position(game, step=JINN_PLACE, jinn_tile=M, ifrit=(5, 11, 12, 13), jinn=(2, 3, 7, 14))
    assert 1 in state.contested() and {3, 7} <= state.contested()
    assert state.legal_actions() == (
        Place(M, 4, 3), Place(M, 4, 7), Place(M, 6, 3), Place(M, 6, 7),
    )  # fmt: skip
    assert state.explain_illegal(Place(M, 1, 3)) == "region 1 is contested"
    assert "contested region 3, 7 must move first" in state.explain_illegal(Place(M, 6, 2))
    after = state.apply(Place(M, 6, 3))
    assert after.jinn == (2, 6, 7, 14) and after.stacks[5] == 1

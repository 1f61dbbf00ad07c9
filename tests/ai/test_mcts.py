"""MCTSAgent: legality, reproducibility, chance, forced wins, tree reuse and strength."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import ClassVar

import pytest

from gamehall.ai.basic import RandomAgent
from gamehall.ai.mcts import MCTSAgent, MoveStat
from gamehall.core import (
    CHANCE,
    TERMINAL,
    Game,
    GamehallError,
    State,
    TooManyOutcomesError,
    find_game,
    play_game,
)
from gamehall.games.acadmu import PASS, AcadmuState

ACADMU = find_game("acadmu")

# --- a toy game: take a sure payoff or roll a weighted die ---------------------------------------


@dataclass(frozen=True)
class Die:
    """Outcomes of the gamble: (label, probability, payoff to player 0)."""

    faces: tuple[tuple[str, Fraction, float], ...]
    listable: bool = True
    """False: chance_outcomes() raises TooManyOutcomesError (like the Äcädmü pour)."""

    def expected(self) -> float:
        return sum(float(p) * pay for _, p, pay in self.faces)


class GambleGame(Game):
    """Player 0 takes ``safe`` (a sure payoff) or ``gamble`` (a roll of ``die``); zero-sum."""

    name: ClassVar[str] = "gamble"
    title: ClassVar[str] = "Gamble"
    player_names: ClassVar[tuple[str, ...]] = ("first", "second")

    def __init__(self, safe: float, die: Die) -> None:
        super().__init__()
        self.safe = safe
        self.die = die

    def new_initial_state(self) -> GambleState:
        return GambleState(self, "choose")

    def parse_state(self, text: str) -> GambleState:
        raise NotImplementedError

    def parse_action(self, text: str) -> str:
        return text

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def action_index(self, action: object) -> int:
        return ("safe", "gamble").index(action)  # type: ignore[arg-type]

    def index_action(self, index: int) -> str:
        return ("safe", "gamble")[index]


BIG = 2**60
"""The unlistable die rolls a number below BIG; face i covers its share of the range."""


@dataclass(frozen=True)
class GambleState(State):
    game: GambleGame = field(compare=False, repr=False)
    stage: str
    payoff: float = 0.0

    @property
    def current_player(self) -> int:
        return {"choose": 0, "roll": CHANCE, "done": TERMINAL}[self.stage]

    def legal_actions(self) -> tuple[str, ...]:
        return ("safe", "gamble") if self.stage == "choose" else ()

    def _payoff(self, outcome: object) -> float:
        if self.game.die.listable:
            return next(pay for label, _, pay in self.game.die.faces if label == outcome)
        start = 0
        for _, probability, pay in self.game.die.faces:
            start += probability * BIG
            if outcome < start:  # type: ignore[operator]
                return pay
        raise AssertionError(outcome)

    def apply_trusted(self, action: object) -> GambleState:
        if self.stage == "choose":
            if action == "safe":
                return GambleState(self.game, "done", self.game.safe)
            return GambleState(self.game, "roll")
        return GambleState(self.game, "done", self._payoff(action))

    def chance_outcomes(self) -> tuple[tuple[object, Fraction], ...]:
        if not self.game.die.listable:
            raise TooManyOutcomesError("2^60 outcomes")
        return tuple((label, p) for label, p, _ in self.game.die.faces)

    def sample_chance(self, rng: random.Random) -> object:
        if self.game.die.listable:
            return super().sample_chance(rng)
        return rng.getrandbits(60)

    def chance_probability(self, action: object) -> Fraction:
        if self.game.die.listable:
            return super().chance_probability(action)
        return Fraction(1, BIG)

    def returns(self) -> tuple[float, ...]:
        return (self.payoff, -self.payoff) if self.stage == "done" else (0.0, 0.0)

    def __str__(self) -> str:
        return f"{self.stage} {self.payoff}"


TENTH = Fraction(1, 10)
# Weighted by probability the gamble is worth +0.6 (beats a sure 0.4); averaged over its listed
# outcomes it would be worth -1/3.
LIKELY_WIN = Die((("win", 8 * TENTH, 1.0), ("bust", TENTH, -1.0), ("crash", TENTH, -1.0)))
# Weighted: -0.6 (worse than a sure 0.2); averaged over outcomes: +1/3.
LIKELY_LOSS = Die((("jackpot", TENTH, 1.0), ("prize", TENTH, 1.0), ("bust", 8 * TENTH, -1.0)))


# --- helpers -------------------------------------------------------------------------------------


def random_states(count: int, seed: int) -> list[AcadmuState]:
    """Decision states met in random Äcädmü matches (full size)."""
    rng = random.Random(seed)
    states: list[AcadmuState] = []
    while len(states) < count:
        state = ACADMU.deal(rng.randrange(10**6))
        for _ in range(rng.randrange(30)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state = state.apply_trusted(state.sample_chance(rng))
            else:
                state = state.apply_trusted(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state.is_chance_node():
            states.append(state)
    return states


def bare_round(seed: int, first: int = 0) -> AcadmuState:
    """A full-size one-round position from a seeded pour."""
    pour = ACADMU.parse_state("pour d 0-0").sample_chance(random.Random(seed))
    return ACADMU.round_state(pour.dark, pour.light, first)


@cache
def minimax(state: AcadmuState) -> float:
    """Exact value of a bare round for Dark."""
    if state.is_terminal():
        return state.returns()[0]
    values = [minimax(state.apply_trusted(a)) for a in state.legal_actions()]
    return max(values) if state.current_player == 0 else min(values)


# --- basics --------------------------------------------------------------------------------------


def test_needs_a_budget():
    with pytest.raises(GamehallError):
        MCTSAgent()
    with pytest.raises(GamehallError):
        MCTSAgent(simulations=0)


def test_always_returns_a_legal_action():
    agent = MCTSAgent(simulations=40, seed=3)
    for state in random_states(25, seed=1):
        action = agent.choose(state)
        assert action in state.legal_actions()
        assert agent.describe_last_choice()


def test_single_legal_move_is_returned_at_once():
    state = ACADMU.parse_state("1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,1,0,0 d -")
    assert state.legal_actions() == (PASS,)
    agent = MCTSAgent(simulations=1000, seed=1)
    assert agent.choose(state) == PASS
    assert agent.last_simulations == 0
    assert "only legal move" in agent.describe_last_choice()


def test_seconds_budget():
    agent = MCTSAgent(seconds=0.05, seed=1)
    state = random_states(1, seed=2)[0]
    assert agent.choose(state) in state.legal_actions()
    assert agent.last_simulations >= 1
    both = MCTSAgent(simulations=30, seconds=10.0, seed=1)
    both.choose(state)
    assert both.last_simulations == 30


def test_analyse_is_sorted_best_first_and_describes_the_choice():
    state = bare_round(4)
    agent = MCTSAgent(simulations=300, seed=2)
    stats = agent.analyse(state)
    assert all(isinstance(s, MoveStat) for s in stats)
    assert {s.action for s in stats} == set(state.legal_actions())
    assert sum(s.visits for s in stats) == 300
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    choice = agent.choose(state)
    assert choice == agent.last_stats[0].action
    note = agent.describe_last_choice()
    assert note.startswith("MCTS 300 simulations (+300 reused)")
    assert "mean return" in note  # a bare round's returns are count differences


def test_win_rate_on_a_win_loss_scale():
    agent = MCTSAgent(simulations=200, seed=1)
    state = random_states(1, seed=5)[0]  # inside a match: horizon estimates in (-1, 1)
    agent.choose(state)
    assert "win rate" in agent.describe_last_choice()


# --- reproducibility -----------------------------------------------------------------------------


def _match_actions(seed_a: int, seed_b: int, simulations: int = 60) -> list[str]:
    agents = [MCTSAgent(simulations=simulations, seed=seed_a), MCTSAgent(simulations, seed=seed_b)]
    played = play_game(ACADMU, agents, start=bare_round(9), max_actions=12)
    return [str(a) for a in played.actions]


def test_same_seed_same_moves():
    assert _match_actions(1, 2) == _match_actions(1, 2)


def test_different_seeds_may_differ():
    reference = _match_actions(1, 2)
    assert any(_match_actions(s, s + 1) != reference for s in (3, 5, 7))


_HASH_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import test_mcts as t
from gamehall.ai.mcts import MCTSAgent
out = []
for die in (t.LIKELY_WIN, t.LIKELY_LOSS):
    game = t.GambleGame(0.4, die)
    agent = MCTSAgent(simulations=200, seed=4)
    out.append([(a, n, round(v, 9)) for a, n, v in agent.analyse(game.new_initial_state())])
    out.append(list(agent.tree.children["gamble"].children))
agent = MCTSAgent(simulations=150, seed=4)
out.append([(str(a), n) for a, n, _ in agent.analyse(t.random_states(1, seed=3)[0])])
print(json.dumps(out))
"""


def test_independent_of_hash_randomisation():
    """String actions hash differently in each process: the search must not care."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-c", _HASH_SCRIPT, str(Path(__file__).parent)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=60,
        )
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]


# --- chance --------------------------------------------------------------------------------------


@pytest.mark.parametrize("listable", [True, False])
def test_gamble_weighed_by_probability(listable):
    win = GambleGame(0.4, Die(LIKELY_WIN.faces, listable))
    assert MCTSAgent(simulations=1500, seed=1).choose(win.new_initial_state()) == "gamble"
    loss = GambleGame(0.2, Die(LIKELY_LOSS.faces, listable))
    assert MCTSAgent(simulations=1500, seed=1).choose(loss.new_initial_state()) == "safe"


def test_chance_children_visited_in_proportion_to_probability():
    game = GambleGame(-1.0, LIKELY_WIN)  # 'safe' is bad: nearly all visits go to the gamble
    agent = MCTSAgent(simulations=4000, seed=7)
    agent.analyse(game.new_initial_state())
    roll = agent.tree.children["gamble"]
    assert roll.player == CHANCE
    total = sum(child.visits for child in roll.children.values())
    assert total == roll.visits - 1 > 3000  # its first visit was a playout from the roll itself
    for label, probability, payoff in LIKELY_WIN.faces:
        assert roll.children[label].visits / total == pytest.approx(float(probability), abs=0.03)
        assert roll.children[label].leaf == (payoff, -payoff)
    assert roll.mean == pytest.approx(LIKELY_WIN.expected(), abs=0.05)


def test_unlistable_chance_widens_progressively():
    game = GambleGame(-1.0, Die(LIKELY_WIN.faces, listable=False))
    agent = MCTSAgent(simulations=2000, seed=7)
    agent.analyse(game.new_initial_state())
    roll = agent.tree.children["gamble"]
    assert len(roll.children) <= agent.widening * (roll.visits**0.5) + 1
    assert roll.mean == pytest.approx(LIKELY_WIN.expected(), abs=0.08)


def test_observe_follows_chance_outcomes():
    game = GambleGame(-1.0, LIKELY_WIN)
    agent = MCTSAgent(simulations=500, seed=1)
    start = game.new_initial_state()
    assert agent.choose(start) == "gamble"
    agent.observe(start, "gamble")
    rolled = start.apply("gamble")
    carried = agent.tree.visits
    assert agent.tree.state == rolled and carried > 400
    agent.observe(rolled, "win")
    assert agent.tree.state == rolled.apply("win")
    assert agent.tree.visits > 0 and agent.tree.leaf == (1.0, -1.0)


# --- search quality ------------------------------------------------------------------------------

# Bare rounds with one winning move where a double capture (the greedy choice) loses ground;
# the test checks these facts by exhaustive minimax.
FORCED = [
    "1,0,0,0,3,0,0,1,2/0,0,0,1,0,2,0,1,4 d -",
    "1,1,2,1,0,0,0,0,0/1,0,2,0,0,1,0,1,0 d -",
    "0,2,0,1,0,1,2,0,2/3,0,0,2,1,0,1,0,0 d -",
    "1,1,1,0,1,0,3,0,0/2,2,0,1,0,0,0,0,1 d -",
    "0,1,0,1,1,0,2,0,0/1,2,0,0,1,1,0,2,0 d -",
]


@pytest.mark.parametrize("text", FORCED)
def test_finds_the_only_winning_move(text):
    state = ACADMU.parse_state(text)
    values = {a: minimax(state.apply_trusted(a)) for a in state.legal_actions()}
    best = max(values.values())
    (winning,) = [a for a, v in values.items() if v == best]
    assert len(winning.taken) == 1 and any(len(a.taken) == 2 for a in values)
    for seed in (1, 2):
        assert MCTSAgent(simulations=1000, seed=seed).choose(state) == winning


def test_light_to_move_plays_for_light():
    dark_view = ACADMU.parse_state("0,0,1,0,1,0,1,2,0/1,0,2,0,0,0,1,0,1 l -")
    values = {a: minimax(dark_view.apply_trusted(a)) for a in dark_view.legal_actions()}
    choice = MCTSAgent(simulations=800, seed=1).choose(dark_view)
    assert values[choice] == min(values.values())


def test_beats_random_in_full_rounds():
    """Six full-size rounds, MCTS on each side of three pours: it must outscore random in
    every round pair and overall by a wide margin."""
    total = 0.0
    for pour_seed in (1, 2, 3):
        for side in (0, 1):
            agents = [RandomAgent(seed=pour_seed), RandomAgent(seed=pour_seed)]
            agents[side] = MCTSAgent(simulations=150, seed=pour_seed)
            final = play_game(ACADMU, agents, start=bare_round(pour_seed)).final
            total += final.returns()[side]
    assert total >= 12  # random vs random averages about 0 here


# --- tree reuse ----------------------------------------------------------------------------------


def test_tree_carries_over_after_observe():
    state = bare_round(5)
    agent = MCTSAgent(simulations=500, seed=1)
    mine = agent.choose(state)
    agent.observe(state, mine)
    after_mine = state.apply(mine)
    assert agent.tree is not None and agent.tree.state == after_mine
    reply = max(agent.tree.children, key=lambda a: agent.tree.children[a].visits)
    agent.observe(after_mine, reply)
    position = after_mine.apply(reply)
    carried = agent.tree.visits
    assert carried > 0 and agent.tree.state == position
    agent.choose(position)
    assert agent.last_reused == carried
    assert agent.tree.visits == carried + 500


def test_tree_dropped_on_an_unexpected_move_or_state():
    state = bare_round(5)
    agent = MCTSAgent(simulations=50, seed=1)
    agent.choose(state)
    agent.observe(ACADMU.parse_state("1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,1,0,0 d -"), PASS)
    assert agent.tree is None
    agent.choose(state)
    agent.choose(bare_round(6))  # a different position: a fresh tree
    assert agent.last_reused == 0


def test_horizon_stops_the_search_at_the_round_end():
    """Inside a match, the round's end is a leaf: no pour is searched."""
    state = random_states(1, seed=8)[0]
    agent = MCTSAgent(simulations=400, seed=1)
    agent.analyse(state)
    stack = [agent.tree]
    while stack:
        node = stack.pop()
        if node.player == CHANCE:
            assert node.leaf is not None and not node.children
        stack.extend(node.children.values())


def test_without_horizon_the_search_plays_on():
    # A match state near a round's end: the search plays through pours to the match's end.
    state = ACADMU.parse_state("1,0,0,1,0,0,0,0,0/0,0,0,1,0,0,1,0,1 d - 10-10 d")
    assert len(state.legal_actions()) > 1
    agent = MCTSAgent(simulations=300, seed=1, horizon=False)
    assert agent.choose(state) in state.legal_actions()
    assert "win rate" in agent.describe_last_choice()
    pours, stack = [], [agent.tree]
    while stack:
        node = stack.pop()
        if node.player == CHANCE and node.children:
            pours.append(node)
        stack.extend(node.children.values())
    assert pours  # some round ends were searched on into the next round


# --- Akros, once its engine is in ----------------------------------------------------------------


def _akros():
    return find_game("akros")


def test_akros_game_against_random():
    game = _akros()
    agents = [MCTSAgent(simulations=60, seed=1), RandomAgent(seed=1)]
    played = play_game(game, agents, seed=3)
    assert played.final.is_terminal()
    assert agents[0].describe_last_choice()


def test_a_compiled_trees_snapshot_keeps_its_figures_when_the_search_goes_on():
    """The snapshot copies the statistics: more search on the same tree leaves it unchanged, and
    its children are the tree's own (the root's visits are its children's)."""
    game = _akros()
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply_trusted(state.sample_chance(random.Random(2)))
    agent = MCTSAgent(simulations=2000, seed=1)
    agent.analyse(state)
    before = agent.tree
    assert before is not None
    figures = {action: (child.visits, child.value) for action, child in before.children.items()}
    agent.analyse(state, simulations=2000)  # the same tree, searched on
    assert {a: (c.visits, c.value) for a, c in before.children.items()} == figures
    assert sum(v for v, _ in figures.values()) == before.visits
    after = agent.tree
    assert after is not None and after.visits == before.visits + 2000
    grand = next(iter(before.children.values()))
    assert all(child.state == grand.state.apply(a) for a, child in grand.children.items())
    assert 0 < sum(child.visits for child in grand.children.values()) <= grand.visits

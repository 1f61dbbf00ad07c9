"""Every registered game as an OpenSpiel Python game: ``python_gamehall_<name>``.

    import pyspiel
    import gamehall.adapters.openspiel  # registers python_gamehall_<name> for every game
    game = pyspiel.load_game("python_gamehall_" + name)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(np.random.choice(outcomes, p=probs))
        else:
            state.apply_action(state.legal_actions()[0])

Declared facts: sequential, perfect information, terminal rewards; ``num_distinct_actions`` is
the game's dense action count; the chance mode, the utility, the return range, the largest
chance node and the longest game come from the game's plugin (``facts``), read, never guessed:
a game whose facts list no chance outcome is ``DETERMINISTIC`` (so OpenSpiel's alpha-beta takes
it), any other ``EXPLICIT_STOCHASTIC``; zero-sum unless the facts say otherwise. Every chance
node lists its outcomes exactly: a chance node too big to list (a pour of many two-faced discs)
is played as the game's small steps (its plugin's ``chance_steps``: a disc at a time, each face
1/2), and the engine's aggregate outcome is composed when the last step is taken. Chance action
ids are positions in the outcome list of the node (or step). Observation tensors are the game's
encoding (its plugin's ``encoding``); the information state is the public history. Parameters:
the game's plain options (bool, int, text and choice kinds) and ``episode`` (``game``, or one
of the game's episodes, e.g. a single ``round`` of a match). An episode starts at a chance node:
its random start (the round's pour and the coin for who moves first) is played as the listed
chance steps its plugin gives (:class:`~gamehall.core.encoding.Episode`'s ``chance``); until
they are taken there is no position yet, and the observation tensor is all zeros. An episode
without listed start chance is refused. There is no information state tensor (the games give
none): ``information_state_tensor`` raises :class:`NoInformationStateTensor`; the information
state string is the public history. Serialization is OpenSpiel's own (the action history), so
``pyspiel.serialize_game_and_state`` round-trips; games and states pickle (each game's class
is a name of this module), so they cross process boundaries (multiprocessing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from gamehall.adapters._common import MATCH, Research
from gamehall.core import Action, GamehallError, State, game_class, game_names
from gamehall.core.encoding import Episode, GameFacts, StartChance

PREFIX = "python_gamehall_"
_PLAIN_KINDS = ("bool", "int", "str", "choice")


def _parameters(name: str) -> dict[str, Any]:
    """The parameters a game takes in OpenSpiel: its plain options and the episode."""
    specs: dict[str, Any] = {"episode": MATCH}
    for option in game_class(name).option_specs:
        if option.kind in _PLAIN_KINDS:
            specs[option.name] = option.default
    return specs


def _game_type(name: str, facts: GameFacts, start_chance: bool = False) -> pyspiel.GameType:
    """The game's OpenSpiel type, its chance mode and utility read from its declared facts
    (registration declares those of the default options; each loaded game, its own)."""
    title = game_class(name).title
    kinds = pyspiel.GameType
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Python gamehall {title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=(
            kinds.ChanceMode.DETERMINISTIC
            if facts.deterministic and not start_chance
            else kinds.ChanceMode.EXPLICIT_STOCHASTIC
        ),
        information=kinds.Information.PERFECT_INFORMATION,
        utility=kinds.Utility.ZERO_SUM if facts.zero_sum else kinds.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(game_class(name).player_names),
        min_num_players=len(game_class(name).player_names),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class NoInformationStateTensor(NotImplementedError):
    """Asked for an information state tensor, which no gamehall game provides."""


def _start_chance(research: Research) -> StartChance | None:
    """The episode's random start as listed chance (None: the whole game, which starts at
    the game's own first state)."""
    if research.episode == MATCH:
        return None
    episode = research.plugin.load_episodes()[research.episode]
    if not isinstance(episode, Episode) or episode.chance is None:
        raise GamehallError(
            f"{research.game.name}'s episode {research.episode!r} lists no start chance, so "
            "OpenSpiel cannot start it at a chance node"
        )
    return episode.chance


class GamehallGame(pyspiel.Game):
    """A gamehall game as OpenSpiel sees it (subclassed per game at registration)."""

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        episode = str(given.pop("episode", MATCH))
        defaults = _parameters(self.game_name)
        options = {k: v for k, v in given.items() if k in defaults and v != defaults[k]}
        self.research = Research.of(self.game_name, episode, options)
        game = self.research.game
        facts = self.research.facts
        steps = self.research.plugin.load_chance_steps()
        start = _start_chance(self.research)
        chance = max(
            facts.max_chance_outcomes,
            steps.max_outcomes() if steps else 0,
            start.max_outcomes(game) if start else 0,
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=chance,
            num_players=game.num_players,
            min_utility=facts.min_return,
            max_utility=facts.max_return,
            utility_sum=0.0 if facts.zero_sum else None,
            max_game_length=facts.max_game_length,
        )
        kind = _game_type(self.game_name, facts, start is not None)
        super().__init__(kind, info, params or {})
        self.steps = steps
        self.start = start

    def new_initial_state(self) -> GamehallState:
        return GamehallState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and parameters (OpenSpiel's own pickling makes a game without
        running ``__init__`` in a new process)."""
        return type(self), (self.get_parameters(),)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return EncodingObserver(self.research, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class GamehallState(pyspiel.State):
    """An engine state, plus the chance steps taken so far at a stepped chance node."""

    def __init__(self, game: GamehallGame) -> None:
        super().__init__(game)
        self.research = game.research
        self.steps = game.steps
        self.start = game.start
        # An episode other than the whole game starts at a chance node: its start's chance
        # steps (``start_picks``) come first, and the engine state exists once they are taken.
        self.inner: State | None = (
            None if self.start is not None else self.research.game.new_initial_state()
        )
        self.start_picks: tuple[int, ...] = ()
        self.picks: tuple[int, ...] = ()

    # --- facts ---

    def _engine(self) -> State:
        assert self.inner is not None, "the episode's start chance is still to come"
        return self.inner

    def current_player(self) -> int:
        inner = self.inner
        if inner is None:
            return pyspiel.PlayerId.CHANCE
        if inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if inner.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return inner.current_player

    def _stepped(self) -> bool:
        return self.inner is not None and self.steps is not None and self.steps.applies(self.inner)

    def _legal_actions(self, player: int) -> list[int]:
        inner = self._engine()
        return sorted(inner.game.action_index(a) for a in inner.legal_actions())

    def _start_outcomes(self) -> tuple[tuple[str, Any], ...]:
        assert self.start is not None
        return self.start.outcomes(self.research.game, self.start_picks)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.inner is None:
            return [(i, float(p)) for i, (_, p) in enumerate(self._start_outcomes())]
        if self._stepped():
            assert self.steps is not None
            step = self.steps.outcomes(self.inner, self.picks)
            return [(i, float(p)) for i, (_, p) in enumerate(step)]
        return [(i, float(p)) for i, (_, p) in enumerate(self.inner.chance_outcomes())]

    # --- moving ---

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            assert self.start is not None
            self.start_picks = (*self.start_picks, int(action))
            if not self._start_outcomes():
                self.inner = self.start.compose(self.research.game, self.start_picks)
            return
        inner = self.inner
        if inner.is_chance_node():
            if self._stepped():
                assert self.steps is not None
                self.picks = (*self.picks, int(action))
                if self.steps.outcomes(inner, self.picks):
                    return
                outcome: Action = self.steps.compose(inner, self.picks)
                self.picks = ()
            else:
                outcome = inner.chance_outcomes()[int(action)][0]
            self.inner = inner.apply_trusted(outcome)
            return
        self.inner = inner.apply(inner.game.index_action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.inner is None:
            return self._start_outcomes()[int(action)][0]
        if player == pyspiel.PlayerId.CHANCE:
            if self._stepped():
                assert self.steps is not None
                return self.steps.outcomes(self.inner, self.picks)[int(action)][0]
            return str(self.inner.chance_outcomes()[int(action)][0])
        return str(self.inner.game.index_action(int(action)))

    # --- the end ---

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self.research.game.num_players
        return [float(r) for r in self.inner.returns()]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and the action history, replayed when unpickled."""
        return _replayed, (self.get_game(), self.history())

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        raise NoInformationStateTensor(
            f"{self.research.game.title} provides no information state tensor (it has perfect "
            "information: use observation_tensor, or information_state_string for the history)"
        )

    def __str__(self) -> str:
        if self.inner is None:
            return f"the episode's start: {len(self.start_picks)} chance steps taken"
        text = str(self.inner)
        return f"{text} [chance steps {len(self.picks)}]" if self.picks else text


def _replayed(game: GamehallGame, history: list[int]) -> GamehallState:
    """The state the actions ``history`` lead to from the game's initial state."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class EncodingObserver:
    """The game's encoding as OpenSpiel's observation tensor; the state's text as its string."""

    def __init__(self, research: Research, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.research = research
        shape = research.encoding.shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: GamehallState, player: int) -> None:
        if state.inner is None:  # the episode's start chance: no position yet
            self.tensor[:] = 0.0
            return
        self.tensor[:] = self.research.encoding.encode(state.inner, player).reshape(-1)

    def string_from(self, state: GamehallState, player: int) -> str:
        return str(state)


class LevelBot(pyspiel.Bot):
    """A gamehall computer level (or plain player) as an OpenSpiel bot, for ``evaluate_bots``
    against OpenSpiel's own bots. It plays on the engine state inside the adapter's state."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        from gamehall.ai import make_agent

        self.level = level
        self.seed = seed
        self.agent = make_agent(level, seed)

    def restart_at(self, state: GamehallState) -> None:
        from gamehall.ai import make_agent

        self.agent = make_agent(self.level, self.seed)

    def inform_action(self, state: GamehallState, player: int, action: int) -> None:
        """Pass every action on, so a search player keeps its tree (a stepped chance node is
        not a single engine action: the tree is dropped there)."""
        inner = state.inner
        if inner is None:  # the episode's start: the agent meets the position when asked
            return
        if player != pyspiel.PlayerId.CHANCE:
            self.agent.observe(inner, inner.game.index_action(int(action)))
        elif not state._stepped():
            self.agent.observe(inner, inner.chance_outcomes()[int(action)][0])

    def step(self, state: GamehallState) -> int:
        inner = state._engine()
        move = self.agent.choose(inner)
        self.agent.observe(inner, move)
        return inner.game.action_index(move)


def _game_class(name: str) -> type[GamehallGame]:
    """The game's ``pyspiel.Game`` subclass, made once and kept as a name of this module, so
    pickle finds it (a pickled game is its class and its parameters: multiprocessing sends
    games and states to other processes that way)."""
    class_name = f"Gamehall_{name}"
    made = globals().get(class_name)
    if made is None:
        made = type(class_name, (GamehallGame,), {"game_name": name, "__module__": __name__})
        globals()[class_name] = made
    return made


def register_all() -> list[str]:
    """Register every game that has an encoding and facts; return the short names."""
    registered = []
    known = set(pyspiel.registered_names())
    for name in game_names():
        try:
            research = Research.of(name)
        except GamehallError:
            continue
        short = PREFIX + name
        if short not in known:
            pyspiel.register_game(_game_type(name, research.facts), _game_class(name))
        registered.append(short)
    return registered


GAMES = register_all()

__all__ = [
    "GAMES",
    "EncodingObserver",
    "GamehallGame",
    "GamehallState",
    "LevelBot",
    "NoInformationStateTensor",
    "register_all",
]

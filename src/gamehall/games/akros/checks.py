"""The referee's words: why a move is illegal (as specifically as the rules allow), and why a
parsed position cannot occur under the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.games.akros import rules
from gamehall.games.akros.rules import (
    DRAW,
    ENVIRONMENT_LETTERS,
    ENVIRONMENT_NAMES,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN_KEEP,
    JINN_PLACE,
    OVER,
    PLAYER_NAMES,
    TURNS,
    Draw,
    Keep,
    KeepDiscard,
    Place,
    Remove,
    contested_regions,
)

if TYPE_CHECKING:
    from gamehall.games.akros.state import AkrosState

# --- explaining illegal actions ------------------------------------------------------------------


def illegal_reason(state: AkrosState, action: object) -> str:
    """Why ``action`` is not legal in ``state``, as specifically as the rules allow."""
    step = state.step
    who = PLAYER_NAMES[state.current_player].capitalize() if state.step not in (DRAW, OVER) else ""
    expected = {
        JINN_KEEP: "the Jinn keeps a drawn tile ('keep F')",
        IFRIT_KEEP: "the Ifrit keeps one tile and discards the other ('keep S discard M')"
        if len(state.draft) == 2
        else "the Ifrit keeps her lone tile ('keep F')",
        IFRIT_PLACE: "the Ifrit places her tile ('M5<10') or removes it",
        JINN_PLACE: "the Jinn places his tile ('M5<10') or removes it",
    }
    if isinstance(action, Draw):
        return "draws are chance outcomes; " + expected.get(step, "nothing is drawn now")
    if step in (JINN_KEEP, IFRIT_KEEP):
        drafted = rules.tiles_text(state.draft)
        if isinstance(action, Keep):
            if step == IFRIT_KEEP and len(state.draft) == 2:
                return f"the Ifrit must also discard one of {drafted} ('keep S discard M')"
            return f"no {ENVIRONMENT_NAMES[action.tile]} among the tiles in hand ({drafted})"
        if isinstance(action, KeepDiscard):
            if step == JINN_KEEP:
                return "the Jinn keeps one tile and passes the rest; only the Ifrit discards"
            if len(state.draft) == 1:
                return "on turn 9 the Ifrit receives one tile and keeps it; nothing is discarded"
            return (
                f"the Ifrit holds {drafted}; she cannot keep "
                f"{ENVIRONMENT_LETTERS[action.keep]} and discard "
                f"{ENVIRONMENT_LETTERS[action.discard]}"
            )
        return f"it is the draft: {expected[step]}"
    if step in (IFRIT_PLACE, JINN_PLACE):
        tile = state.tile_in_hand()
        assert tile is not None
        tile_name = ENVIRONMENT_NAMES[tile]
        legal = state.legal_actions()
        if isinstance(action, Remove):
            if action.tile != tile:
                return f"the {who}'s tile is {tile_name}, not {ENVIRONMENT_NAMES[action.tile]}"
            return (
                f"the tile can be placed (e.g. {legal[0]}); a tile is removed only when it cannot"
            )
        if isinstance(action, Place):
            return _place_reason(state, action, tile, legal)
        return f"it is time to place: {expected[step]}"
    if step == OVER:
        return "the game is over"
    return "it is a chance node: only a draw happens here"


def _place_reason(state: AkrosState, action: Place, tile: int, legal: tuple[object, ...]) -> str:
    board = state.game.board
    tile_name = ENVIRONMENT_NAMES[tile]
    ifrit_turn = state.step == IFRIT_PLACE
    who = "Ifrit" if ifrit_turn else "Jinn"
    if action.tile != tile:
        return f"the {who}'s tile is {tile_name}, not {ENVIRONMENT_NAMES[action.tile]}"
    if isinstance(legal[0], Remove):
        return f"the {tile_name} tile has no legal place: it must be removed ('{legal[0]}')"
    for region in (action.region, action.source):
        if not 1 <= region <= board.size:
            return f"there is no region {region} (regions are 1 to {board.size})"
    own = state.ifrit if ifrit_turn else state.jinn
    if action.source not in own:
        return f"no {who} servant stands on region {action.source}"
    region_environment = board.environment_of(action.region)
    if region_environment != tile:
        return (
            f"region {action.region} is {ENVIRONMENT_NAMES[region_environment]}, "
            f"the tile is {tile_name}"
        )
    if state.occupied() >> action.region & 1:
        return f"region {action.region} is occupied"
    if ifrit_turn:
        return f"servant at {action.source} cannot reach {action.region} in one step"
    contested = contested_regions(state.ifrit, board.neighbour_masks)
    if contested >> action.region & 1:
        return f"region {action.region} is contested"
    movers = rules.jinn_movers(state.jinn, contested)
    if action.source not in movers:
        shown = ", ".join(str(r) for r in movers)
        return f"a Jinn servant on contested region {shown} must move first"
    return "not a legal placement"


# --- checking positions --------------------------------------------------------------------------


def position_problem(state: AkrosState) -> str | None:
    """What makes a parsed position impossible under the rules, or None if it can occur."""
    board = state.game.board
    turn, step = state.turn, state.step
    if len(state.stacks) != board.size:
        return f"{len(state.stacks)} regions given, the board has {board.size}"
    for player, servants in (("Jinn", state.jinn), ("Ifrit", state.ifrit)):
        if len(servants) != board.servants:
            return f"{len(servants)} {player} servants, expected {board.servants}"
    if step == DRAW and turn > rules.BAG_TURNS:
        return f"turn {turn} draws from the Temple, not the bag"
    if step == OVER and turn != TURNS:
        return "a finished game is shown at turn 9"
    in_hand = len(state.draft)
    drafted = 2 if turn == TURNS else 3
    expected_draft = {JINN_KEEP: drafted, IFRIT_KEEP: drafted - 1}.get(step, 0)
    if in_hand != expected_draft:
        return f"the draft holds {in_hand} tiles at {state.step_name} of turn {turn}, expected {expected_draft}"
    jinn_holds = step in (IFRIT_KEEP, IFRIT_PLACE, JINN_PLACE)
    if (state.jinn_tile is not None) != jinn_holds:
        return (
            f"the Jinn {'should' if jinn_holds else 'cannot'} hold a kept tile at {state.step_name}"
        )
    if (state.ifrit_tile is not None) != (step == IFRIT_PLACE):
        return (
            f"the Ifrit {'should' if step == IFRIT_PLACE else 'cannot'} hold a kept tile at "
            f"{state.step_name}"
        )
    # Tiles drawn so far and tiles placed or removed so far, by the clock.
    done_turns = turn if step == OVER else turn - 1
    drawn_this_turn = step != DRAW and turn <= rules.BAG_TURNS
    bag_left = board.tile_count - rules.TILES_DRAWN * (
        min(done_turns, rules.BAG_TURNS) + drawn_this_turn
    )
    if turn > rules.BAG_TURNS:
        bag_left = 0
    if sum(state.bag) != bag_left:
        return f"the bag holds {sum(state.bag)} tiles, expected {bag_left} at this point"
    for index, pile in enumerate(state.temple):
        expected = _pile_size(index, turn, step)
        if len(pile) != expected:
            return f"Temple pile {7 + index} holds {len(pile)} tiles, expected {expected}"
    placed = 2 * done_turns + (step == JINN_PLACE)
    bag_removed = board.tile_count - rules.TILES_DRAWN * rules.BAG_TURNS if turn > 6 else 0
    if sum(state.stacks) + sum(state.removed) - bag_removed != placed:
        return (
            f"{sum(state.stacks)} tiles on the board and {sum(state.removed)} removed do not "
            f"match {placed} tiles placed or removed by now"
        )
    for environment in rules.ENVIRONMENTS:
        count = (
            state.bag[environment]
            + state.removed[environment]
            + state.draft.count(environment)
            + sum(pile.count(environment) for pile in state.temple)
            + (state.jinn_tile == environment)
            + (state.ifrit_tile == environment)
            + sum(
                height
                for region, height in enumerate(state.stacks, 1)
                if board.environment_of(region) == environment
            )
        )
        if count != board.bag[environment]:
            return (
                f"{count} {ENVIRONMENT_NAMES[environment]} tiles accounted for, "
                f"the game has {board.bag[environment]}"
            )
    return None


def _pile_size(index: int, turn: int, step: int) -> int:
    """How many tiles Temple pile 7/8/9 (index 0/1/2) holds at this point of the game."""
    discarded_this_turn = step in (IFRIT_PLACE, JINN_PLACE, OVER)
    first, last = ((1, 3), (4, 6), (7, 8))[index]
    if turn >= index + 7 and not (turn == index + 7 and step == DRAW):
        return 0  # picked up by the Jinn on turn 7, 8 or 9
    done = sum(1 for t in range(first, last + 1) if t < turn or (t == turn and discarded_this_turn))
    return done

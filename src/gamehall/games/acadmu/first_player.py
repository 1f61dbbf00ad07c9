"""Choosing who plays first in round 1: the two drawn discs' up-faces compared, then their other
faces, and why in words."""

from __future__ import annotations

from gamehall.games.acadmu.actions import DARK, LIGHT, NO_ONE, Draw
from gamehall.games.acadmu.tokens import (
    COLOURS,
    SHAPES,
    colour_beats,
    colour_of,
    describe,
    shape_beats,
    shape_of,
)


def first_player_by_faces(dark: int, light: int) -> int:
    """Compare two up-faces: 'the colour that beats the other goes first; if the colours are
    equal, the shape that beats the other goes first' (NO_ONE if both are equal)."""
    if colour_of(dark) != colour_of(light):
        return DARK if colour_beats(colour_of(dark), colour_of(light)) else LIGHT
    if shape_of(dark) != shape_of(light):
        return DARK if shape_beats(shape_of(dark), shape_of(light)) else LIGHT
    return NO_ONE


def first_player_by_draw(draw: Draw) -> int:
    """'If both are equal, both discs are flipped and their other faces are compared the same
    way; if those tie too, both players draw again' (NO_ONE: draw again)."""
    winner = first_player_by_faces(draw.dark[0], draw.light[0])
    if winner == NO_ONE:
        winner = first_player_by_faces(draw.dark[1], draw.light[1])
    return winner


def faces_compared(dark: int, light: int) -> str:
    """Why one up-face goes before the other, in words ('Red beats Blue'), or that they tie."""
    dark_colour, light_colour = colour_of(dark), colour_of(light)
    if dark_colour != light_colour:
        won, lost = (
            (dark_colour, light_colour)
            if colour_beats(dark_colour, light_colour)
            else (light_colour, dark_colour)
        )
        return f"{COLOURS[won]} beats {COLOURS[lost]}"
    dark_shape, light_shape = shape_of(dark), shape_of(light)
    if dark_shape != light_shape:
        won, lost = (
            (dark_shape, light_shape)
            if shape_beats(dark_shape, light_shape)
            else (light_shape, dark_shape)
        )
        return f"both {COLOURS[dark_colour]}: {SHAPES[won]} beats {SHAPES[lost]}"
    return f"both {describe(dark)}"


def draw_reason(draw: Draw) -> str:
    """The first-player draw explained: which faces decided, and how."""
    first = first_player_by_faces(draw.dark[0], draw.light[0])
    if first != NO_ONE:
        return faces_compared(draw.dark[0], draw.light[0])
    tie = faces_compared(draw.dark[0], draw.light[0])
    if first_player_by_faces(draw.dark[1], draw.light[1]) != NO_ONE:
        return f"{tie}; flipped, {faces_compared(draw.dark[1], draw.light[1])}"
    return f"{tie}; flipped, {faces_compared(draw.dark[1], draw.light[1])} too: draw again"

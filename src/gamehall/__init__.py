"""gamehall: a hall of tabletop games — rules engines, computer players, records and front ends.

The games themselves are plugins (see :mod:`gamehall.core.plugin`)."""

__version__ = "0.1.0"

"""gamehall: Äcädmü and Akros — rules engines, computer players, records and front ends."""

__version__ = "0.1.0"

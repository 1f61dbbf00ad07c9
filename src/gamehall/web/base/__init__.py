"""Base: what every web layer stands on: settings, limits, the clock and the engine adapter."""

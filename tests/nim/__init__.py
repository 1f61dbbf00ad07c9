"""Nim: a third game that exists only in the tests.

It brings nothing but its rules and a plugin record (no solver, no view, no web board), and is
registered by a fixture, never installed. That every generic layer plays it (the conformance
test, the command line, self-play analysis, the web API and WebSocket) is the proof that the
layers outside ``gamehall.games`` know no game by name.
"""

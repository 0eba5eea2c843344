"""Gomoku: five in a row, with a numba engine, LAN duels and a Gomocup brain."""

__version__ = "0.1.0"

"""The AI: pattern tables, evaluation and search (numba lives here only), on the rules core."""

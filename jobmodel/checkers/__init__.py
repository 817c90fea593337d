"""Checkers: what runs the laws over a system (explorer, Hypothesis machines, traces, proofs)."""

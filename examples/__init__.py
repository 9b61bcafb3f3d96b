"""Runnable integration examples (not part of the installed package); see README.md."""

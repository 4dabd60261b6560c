"""Subcommands of ``referee``; see referee.cli."""

"""The Seega Discord bot: a game service over SQLite, a renderer, and adapters (Discord, console)."""

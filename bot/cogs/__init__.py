"""Discord cogs: one feature per module; ``bot.cogs.game`` is the extension that loads them."""

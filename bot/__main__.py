"""``python -m bot``: the same as the ``seega-bot`` console script."""

from bot.app import main

raise SystemExit(main())

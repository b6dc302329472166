"""``python -m bot.console [DB]``."""

import sys

from bot.console import main

raise SystemExit(main(sys.argv[1:]))

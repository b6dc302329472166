"""``python -m engine``: the command line of docs/rules.md section 8."""

import sys

from engine.cli import main

sys.exit(main())

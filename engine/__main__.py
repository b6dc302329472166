"""``python -m engine``: the command line of docs/rules.md section 8."""

import sys

from engine.cli import main

if __name__ == "__main__":  # importing the module (by a tool, a forged job) runs nothing
    sys.exit(main())

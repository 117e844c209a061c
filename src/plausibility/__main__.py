"""`python -m plausibility` runs the command-line interface."""

import sys

from plausibility.cli import main

sys.exit(main())

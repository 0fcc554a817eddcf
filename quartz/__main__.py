"""`python -m quartz` runs the command line."""
import sys

from quartz.cli import main

sys.exit(main())

"""`python -m jobmodel`."""

import sys

from jobmodel.cli import main

sys.exit(main())

import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
# The tests' helpers (tinygame, records, oracles, ...) live here; a test may reuse another
# group's strategies (``from test_backends import models``), so every group is on the path too.
for folder in (HERE, *(HERE / group for group in ("engine", "rules", "cli", "conformance"))):
    sys.path.insert(0, str(folder))

# Commands run as subprocesses remember no item orders outside the test's own folders.
os.environ["SLEUTH_CACHE"] = "off"

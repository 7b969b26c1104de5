import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Commands run as subprocesses remember no item orders outside the test's own folders.
os.environ["SLEUTH_CACHE"] = "off"

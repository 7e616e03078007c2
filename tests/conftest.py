"""Tests run from the repository root, where the workflow's relative paths (config/,
workflow/schemas/) resolve, wherever pytest was started."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
os.chdir(REPO_ROOT)

"""Shared test fixtures."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))  # lets tests import the independent reference scorer

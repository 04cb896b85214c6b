"""Test-only: ``dask worker --preload tests/dask_other_version.py`` (or
``dask scheduler --preload ...``) makes that process say it runs another
muggins-cli, as one with another release installed would; never part of
muggins-cli."""

import muggins_cli

muggins_cli.__version__ = "0.0.0+other"

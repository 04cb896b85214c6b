"""Test-only: ``dask worker --preload tests/dask_other_version.py`` makes
that worker process say it runs another muggins-cli, as a worker with
another release installed would; never part of muggins-cli."""

import muggins_cli

muggins_cli.__version__ = "0.0.0+other"

"""Runs ENSim sweeps on a Dask distributed cluster: one task per run, each running `ensim run` on a worker.

`ensim sweep FILE --executor dask --scheduler tcp://HOST:8786` starts `python3 -m ensim_dask` (see
__main__.py), which submits the runs and reports each finished one on stdout ("ok ID" or
"failed ID MESSAGE"). Workers need dask, distributed and the ensim binary, not this package: the task
function travels by value.
"""

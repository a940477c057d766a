"""python3 -m ensim_dask --scheduler ADDRESS --jobs JOBS.json (--incoming DIR | --shared-results DIR) [--ensim PATH]

The client side of `ensim sweep --executor dask`: submits one task per job, then prints one line per
finished run, in the order they finish: "ok ID" once its files are written under DIR/ID, or
"failed ID MESSAGE". Exit 0 when every job was reported, 2 on bad arguments, 3 without dask,
4 when the scheduler cannot be reached.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

INSTALL = "python3 -m pip install dask distributed"


# Defined here, in the module run as __main__, so that Dask pickles this function by value: workers (and
# the scheduler, which unpickles task graphs) need dask and ensim, not this package.
def run_one(run_id, scenario, ensim="ensim", threads=1, shared_runs=None):
    """Runs `ensim run` on one scenario file text.

    Returns {"id", "error"} on failure; otherwise {"id", "files"} where files maps each path inside the
    run folder to its bytes, or is None when the run was written to `shared_runs/<run_id>` directly.
    """
    with tempfile.TemporaryDirectory(prefix="ensim-task-") as tmp:
        scenario_path = os.path.join(tmp, run_id + ".yaml")
        with open(scenario_path, "w", encoding="utf-8") as f:
            f.write(scenario)
        out = os.path.join(shared_runs, run_id) if shared_runs else os.path.join(tmp, "run")
        if shared_runs and os.path.exists(os.path.join(out, "manifest.json")):
            # Done by an earlier attempt whose worker was lost before it reported: ensim sweep checks its hash.
            return {"id": run_id, "files": None}
        command = [ensim, "run", scenario_path, "--out", out, "--quiet", "--threads", str(threads)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, cwd=tmp)
        except OSError as error:  # no ensim on this worker
            return {"id": run_id, "error": "cannot start %s on the worker: %s (pass --ensim PATH)" % (ensim, error)}
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()][-3:]
            return {"id": run_id, "error": "exit %d: %s" % (done.returncode, " | ".join(lines) or "(no message)")}
        if shared_runs:
            return {"id": run_id, "files": None}
        files = {}
        for root, _, names in os.walk(out):
            for name in names:
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, out)] = f.read()
        return {"id": run_id, "files": files}


def parse(argv):
    parser = argparse.ArgumentParser(prog="python3 -m ensim_dask", description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", required=True, help="scheduler address, e.g. tcp://127.0.0.1:8786")
    parser.add_argument("--jobs", required=True, help="JSON written by ensim sweep: {threads, jobs: [{id, scenario}]}")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--incoming", help="folder for the files each task returns (DIR/ID/...)")
    where.add_argument("--shared-results", help="runs folder the workers write into themselves")
    parser.add_argument("--ensim", default="ensim", help="ensim on the workers: a name on their PATH or an absolute path")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait for the scheduler")
    return parser.parse_args(argv)


def write_files(folder, files):
    for name, data in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main(argv=None):
    args = parse(argv)
    try:
        from distributed import Client, as_completed
    except ImportError as error:
        print("error: %s; install the Python packages: %s (or bash .ci/setup)" % (error, INSTALL), file=sys.stderr)
        return 3
    with open(args.jobs, encoding="utf-8") as f:
        spec = json.load(f)
    threads = int(spec.get("threads", 1))
    try:
        client = Client(args.scheduler, timeout="%ss" % args.timeout)
    except (OSError, ValueError) as error:
        print("error: cannot reach the Dask scheduler at %s: %s" % (args.scheduler, error), file=sys.stderr)
        return 4
    try:
        futures = {}
        for job in spec["jobs"]:
            future = client.submit(run_one, job["id"], job["scenario"], args.ensim, threads, args.shared_results,
                                   pure=False, key="ensim-run-%s-%s" % (job["id"], os.getpid()))
            futures[future] = job["id"]
        for future in as_completed(futures):
            run_id = futures[future]
            try:
                result = future.result()
            except Exception as error:  # the task raised, or its workers kept dying
                print("failed %s %s: %s" % (run_id, type(error).__name__, str(error).replace("\n", " ")), flush=True)
                continue
            if result.get("error"):
                print("failed %s %s" % (run_id, result["error"].replace("\n", " ")), flush=True)
                continue
            if result.get("files") is not None:
                write_files(os.path.join(args.incoming, run_id), result["files"])
            print("ok %s" % run_id, flush=True)
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Hold model in SimPy, the reference for `ensim bench engine`.

Style "callback" (default, SimPy's fastest form): each handled timeout event's callback
schedules the next timeout. Style "process" (idiomatic): `pending` generator processes each
loop forever over `yield env.timeout(...)`. Either way exactly `pending` events stay queued,
as in the Swift hold benchmark.
Increments are round(Exp(mean)) integer seconds (like SimTime), pre-drawn into a table
before timing so the measurement is SimPy's event loop, not the random number generator.
After `warmup` untimed holds, `events` holds are timed. Prints one JSON object.
"""
import argparse
import json
import random
import sys
import time

import simpy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pending", type=int, default=1000)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--style", choices=["callback", "process"], default="callback")
    parser.add_argument("--warmup", type=int, default=None, help="untimed holds first (default: min(pending, events, 1000))")
    parser.add_argument("--mean", type=float, default=1e9, help="mean increment in seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table", type=int, default=1 << 20, help="pre-drawn increments, reused cyclically")
    args = parser.parse_args()
    warmup = min(args.pending, args.events, 1000) if args.warmup is None else args.warmup

    table_size = 1
    while table_size < min(args.table, args.pending + warmup + args.events):
        table_size *= 2
    rng = random.Random(args.seed)
    increments = [round(rng.expovariate(1.0 / args.mean)) for _ in range(table_size)]
    mask = table_size - 1

    env = simpy.Environment()
    # [next increment index, handled holds, hold count that ends the phase, phase-end event]
    state = [0, 0, warmup, env.event()]

    def holder():
        timeout = env.timeout
        while True:
            index = state[0]
            state[0] = index + 1
            yield timeout(increments[index & mask])
            state[1] += 1
            if state[1] == state[2]:
                state[3].succeed()

    def handled(event):
        index = state[0]
        state[0] = index + 1
        env.timeout(increments[index & mask]).callbacks.append(handled)
        state[1] += 1
        if state[1] == state[2]:
            state[3].succeed()

    for _ in range(args.pending):
        if args.style == "process":
            env.process(holder())
        else:
            index = state[0]
            state[0] = index + 1
            env.timeout(increments[index & mask]).callbacks.append(handled)
    if warmup > 0:
        env.run(until=state[3])

    state[2] = state[1] + args.events
    state[3] = env.event()
    started = time.perf_counter()
    env.run(until=state[3])
    seconds = time.perf_counter() - started

    json.dump({
        "implementation": "simpy " + simpy.__version__,
        "style": args.style,
        "python": sys.version.split()[0],
        "pending": args.pending,
        "events": args.events,
        "seconds": seconds,
        "events_per_second": args.events / seconds,
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()

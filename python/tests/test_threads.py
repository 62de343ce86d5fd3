# SPDX-License-Identifier: Apache-2.0
"""Long computations release the GIL: another Python thread keeps running while one composes, and two threads
composing at once get the answers they get alone."""

import threading
import time

import dpledger

DP_SGD = "gaussian:sigma=1.1,q=0.01,steps=10000"


def test_a_python_thread_runs_while_another_composes():
    ticking, done = threading.Event(), threading.Event()
    window = {}

    def work():
        ticking.wait()  # the main thread is already running its loop
        window["t0"] = time.perf_counter()
        dpledger.compose(DP_SGD, delta=1e-5, accountant="pld")
        window["t1"] = time.perf_counter()
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    ticks = []
    while not done.is_set():  # the main thread's own Python work, timestamped
        ticks.append(time.perf_counter())
        ticking.set()
        sum(range(100))
    worker.join()
    t0, t1 = window["t0"], window["t1"]
    seconds = t1 - t0
    middle = [t for t in ticks if t0 + seconds / 3 < t < t1 - seconds / 3]
    # Holding the GIL for the whole composition would stop this loop from its start to its end (no tick in the
    # middle third: checked with a build that holds it); released, the loop runs throughout.
    assert seconds > 0.05, "the composition is too fast to tell"
    assert len(middle) > 50, (len(middle), seconds)


def test_two_threads_compose_at_once_and_agree_with_one():
    alone = {a: dpledger.compose(DP_SGD, delta=1e-5, accountant=a).epsilon for a in ("pld", "rdp")}
    calibrated = dpledger.calibrate("gaussian:sigma=?,q=0.01,steps=1000", epsilon=1, delta=1e-5, accountant="rdp").value
    got = {}

    def run(name, fn):
        got[name] = fn()

    threads = [threading.Thread(target=run, args=("pld", lambda: dpledger.compose(DP_SGD, delta=1e-5, accountant="pld").epsilon)),
               threading.Thread(target=run, args=("rdp", lambda: [dpledger.compose(DP_SGD, delta=1e-5, accountant="rdp").epsilon
                                                                  for _ in range(20)][-1])),
               threading.Thread(target=run, args=("cal", lambda: dpledger.calibrate(
                   "gaussian:sigma=?,q=0.01,steps=1000", epsilon=1, delta=1e-5, accountant="rdp").value))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {"pld": alone["pld"], "rdp": alone["rdp"], "cal": calibrated}

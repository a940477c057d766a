import Foundation
import Synchronization

/// The processes a sweep started (`ensim run`, the Dask client). Foundation spawns each child in a
/// process group of its own, so Ctrl-C on a terminal reaches the sweep but not them: on SIGINT or
/// SIGTERM the sweep passes the signal on, then exits. Complete run folders stay; a run cut short
/// leaves only its hidden staging folder, which the next claim of that folder removes.
///
/// The handler is a plain C signal handler over a fixed table of process ids, because it may only do
/// async-signal-safe work; and a caught signal (unlike an ignored or blocked one) is reset to its
/// default in a child at exec, so the children still die of the signal passed on.
public enum ChildProcesses {
    static let capacity = 1024
    /// Process ids of running children; 0 marks a free slot. Written under `lock`, read by the handler.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()
    /// The signal being passed on, once one came: a child registered after it is stopped at once,
    /// and no child is started after it.
    static let stopping = Atomic<Int32>(0)
    /// Children being started and not yet registered: the handler waits for them, or a child started
    /// just as the signal came would outlive the sweep, unseen.
    static let starting = Atomic<Int>(0)

    /// Starts `process` and registers it, so a signal arriving meanwhile stops it too. The signals are
    /// blocked on this thread meanwhile, so the handler never waits on the start it interrupted
    /// (Foundation clears the child's signal mask).
    static func start(_ process: Process) throws {
        var signals = sigset_t(), previous = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, &previous)
        starting.add(1, ordering: .sequentiallyConsistent)
        defer {
            starting.subtract(1, ordering: .sequentiallyConsistent)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        guard stopping.load(ordering: .sequentiallyConsistent) == 0 else { throw CancellationError() }
        try process.run()
        add(process.processIdentifier)
    }
    nonisolated(unsafe) static var message: UnsafeMutablePointer<CChar>?
    static let lock = NSLock()

    static func add(_ pid: Int32) {
        lock.lock()
        if let free = (0..<capacity).first(where: { slots[$0] == 0 }) { slots[free] = pid }
        lock.unlock()
        let signal = stopping.load(ordering: .sequentiallyConsistent)
        if signal != 0 { kill(pid, signal) }
    }

    static func remove(_ pid: Int32) {
        lock.lock()
        if let slot = (0..<capacity).first(where: { slots[$0] == pid }) { slots[slot] = 0 }
        lock.unlock()
    }

    /// From now on, SIGINT and SIGTERM stop every registered child with the same signal, then this
    /// process exits with 128 + the signal's number (130 for Ctrl-C), as a shell reports it.
    public static func stopChildrenOnInterrupt() {
        _ = slots
        message = strdup("interrupted: running runs stopped; complete runs are kept, run the same command to resume\n")
        let handler: @convention(c) (Int32) -> Void = { number in
            ChildProcesses.stopping.store(number, ordering: .sequentiallyConsistent)
            ChildProcesses.signalAll(number)
            // A child that blocks or ignores the signal (inherited from whoever started the sweep) gets
            // SIGKILL after 2 s; the executors' threads clear the slots of children that exit.
            var waited = 0
            while waited < 40, ChildProcesses.starting.load(ordering: .sequentiallyConsistent) > 0
                || (0..<ChildProcesses.capacity).contains(where: { ChildProcesses.slots[$0] > 0 }) {
                usleep(50_000)
                waited += 1
            }
            ChildProcesses.signalAll(SIGKILL)
            if let text = ChildProcesses.message { _ = write(STDERR_FILENO, text, strlen(text)) }
            _exit(128 + number)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // The sweep may have been started with these signals blocked (a test harness); Ctrl-C must still work.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func signalAll(_ number: Int32) {
        for i in 0..<capacity where slots[i] > 0 { kill(slots[i], number) }
    }
}

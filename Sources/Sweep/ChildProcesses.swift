import Foundation

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
    /// The signal being passed on, once one came: a child registered after it is stopped at once.
    nonisolated(unsafe) static var stopping: Int32 = 0
    nonisolated(unsafe) static var message: UnsafeMutablePointer<CChar>?
    static let lock = NSLock()

    static func add(_ pid: Int32) {
        lock.lock()
        if let free = (0..<capacity).first(where: { slots[$0] == 0 }) { slots[free] = pid }
        lock.unlock()
        if stopping != 0 { kill(pid, stopping) }
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
            ChildProcesses.stopping = number
            ChildProcesses.signalAll(number)
            // A child that blocks or ignores the signal (inherited from whoever started the sweep) gets
            // SIGKILL after 2 s; the executors' threads clear the slots of children that exit.
            var waited = 0
            while waited < 40, (0..<ChildProcesses.capacity).contains(where: { ChildProcesses.slots[$0] > 0 }) {
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

import ArgumentParser
import Foundation
import Reporting
import Simulation
import Synchronization

/// Stops a run whose memory outgrows its estimate before the kernel's OOM killer does: that kill
/// is a SIGKILL with no word of why, and the estimate (`RunEstimate`) is only right within ~30%
/// for the settings it was fitted to. A thread reads the memory available (MemAvailable, or the
/// cgroup's limit) ten times a second; below the reserve it prints one line, drops the run's
/// unfinished folder and exits with status 2, as the refusal before the start does.
final class MemoryWatchdog: @unchecked Sendable {
    /// Memory the run leaves to the rest of the machine: 3% of it, at least 512 MB; the
    /// environment's `ENSIM_MEMORY_RESERVE` (bytes) overrides it.
    /// - Throws: a one-line `ValidationError` when the variable is set but not a whole number of bytes.
    static func reserveBytes(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int64 {
        guard let text = environment["ENSIM_MEMORY_RESERVE"] else {
            return max(512_000_000, Int64(Double(ProcessInfo.processInfo.physicalMemory) * 0.03))
        }
        guard let bytes = Int64(text), bytes >= 0 else {
            throw ValidationError("the environment variable ENSIM_MEMORY_RESERVE must be a whole number of bytes, 0 or more, not \"\(text)\"")
        }
        return bytes
    }

    private final class Flag: Sendable { let raised = Atomic<Bool>(false) }

    private let thread: Thread
    private let cancelled = Flag()

    /// Starts watching; `stop` is called once, on the watchdog's thread, before the process exits.
    /// - Parameter message: the line to print, given the memory available and this process's resident memory.
    init(reserve: Int64, message: @escaping @Sendable (_ available: Int64, _ resident: Int64) -> String, stop: @escaping @Sendable () -> Void) {
        let cancelled = self.cancelled
        thread = Thread {
            while !cancelled.raised.load(ordering: .acquiring) {
                if let available = RunEstimate.availableBytes(), available < reserve {
                    Console.error(message(available, Int64(ProcessMemory.residentBytes() ?? 0)))
                    stop()
                    _exit(2)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.name = "ensim-memory-watchdog"
        thread.start()
    }

    /// Stops watching: the run is over and its results are being written, which must not be cut short.
    func cancel() { cancelled.raised.store(true, ordering: .releasing) }
}

/// A value handed to the watchdog's thread, which only touches it just before the process exits.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

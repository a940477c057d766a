import Foundation

/// CPU time and page faults of this process so far (getrusage): on a shared machine the wall
/// time of one run moves by tens of percent, its CPU time less, and system time and minor faults
/// show what fresh memory costs. A simulation reads it around each phase (its CPU per phase);
/// the benchmarks read it for the whole process and its children.
public struct ProcessUsage {
    public let userSeconds: Double
    public let systemSeconds: Double
    public let minorPageFaults: Int
    /// Peak resident set size (`ru_maxrss`, in kB on Linux).
    public let maxResidentBytes: Int
    /// User and system time together: every thread's.
    public var cpuSeconds: Double { userSeconds + systemSeconds }

    public static var now: ProcessUsage { of(RUSAGE_SELF.rawValue) }

    /// The same for every child process waited for so far (`RUSAGE_CHILDREN`; peak: the largest).
    public static var children: ProcessUsage { of(RUSAGE_CHILDREN.rawValue) }

    private static func of(_ who: Int32) -> ProcessUsage {
        var usage = rusage()
        getrusage(who, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return ProcessUsage(userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
                            minorPageFaults: Int(usage.ru_minflt), maxResidentBytes: Int(usage.ru_maxrss) * 1024)
    }
}

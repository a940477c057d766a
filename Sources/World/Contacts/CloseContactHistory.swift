import Foundation

/// Close contacts of every day of the run, which detection's ground truth needs at the end (a
/// case's infectious window can reach back further than any retention). The last `memoryDays`
/// stay in memory; older days go to an unlinked temporary file (in `TMPDIR`), so a year-long
/// run's memory does not grow with its days: ~16 bytes per close contact move to disk.
public final class CloseContactHistory {
    private struct Spilled {
        var dayIndex: Int
        var closeContactSeconds: Int32
        var offset: Int64
        var count: Int
    }

    public let memoryDays: Int
    private var spilled: [Spilled] = []
    private var recent: [GroundTruthDay] = []
    private var descriptor: Int32 = -1
    private var fileEnd: Int64 = 0

    public init(memoryDays: Int = 7) { self.memoryDays = max(1, memoryDays) }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public var count: Int { spilled.count + recent.count }

    /// Bytes held in memory (the days not yet spilled) and on disk.
    public var memoryBytes: Int { recent.reduce(0) { $0 + $1.bytes } }
    public var diskBytes: Int64 { fileEnd }

    /// - Throws: `SpillError` when the temporary file cannot be written (a full disk).
    public func append(_ day: GroundTruthDay) throws {
        recent.append(day)
        if recent.count > memoryDays { try spill(recent.removeFirst()) }
    }

    /// Every day, oldest first; spilled days are read back one at a time as the sequence is walked.
    public var days: some Sequence<GroundTruthDay> {
        [AnySequence(spilled.lazy.map { self.read($0) }), AnySequence(recent)].joined()
    }

    public struct SpillError: Error, CustomStringConvertible {
        public let description: String
    }

    private func spill(_ day: GroundTruthDay) throws {
        if descriptor < 0 { descriptor = try Self.openTemporary() }
        let record = Spilled(dayIndex: day.dayIndex, closeContactSeconds: day.closeContactSeconds, offset: fileEnd, count: day.pairs.count)
        for bytes in [day.pairs.withUnsafeBytes { Array($0) }, day.secondsWithin.withUnsafeBytes { Array($0) },
                      day.secondsTotal.withUnsafeBytes { Array($0) }] {
            guard bytes.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, off_t(fileEnd)) }) == bytes.count else {
                throw SpillError(description: "cannot write the close-contact history to \(Self.folder) (\(String(cString: strerror(errno)))); "
                                 + "set TMPDIR to a folder with space")
            }
            fileEnd += Int64(bytes.count)
        }
        spilled.append(record)
    }

    private func read(_ s: Spilled) -> GroundTruthDay {
        func load<T>(_ type: T.Type, at offset: Int64) -> [T] {
            [T](unsafeUninitializedCapacity: s.count) { buffer, initialized in
                let bytes = s.count * MemoryLayout<T>.stride
                // Written by this process to an unlinked file: only a failing disk makes this fail.
                guard pread(descriptor, buffer.baseAddress, bytes, off_t(offset)) == bytes else {
                    fatalError("ensim: cannot read back the close-contact history: \(String(cString: strerror(errno)))")
                }
                initialized = s.count
            }
        }
        let pairs = load(UInt64.self, at: s.offset)
        let within = load(Int32.self, at: s.offset + Int64(s.count * 8))
        let total = load(Int32.self, at: s.offset + Int64(s.count * 12))
        return GroundTruthDay(dayIndex: s.dayIndex, pairs: pairs, secondsWithin: within, secondsTotal: total,
                              closeContactSeconds: s.closeContactSeconds)
    }

    private static var folder: String { FileManager.default.temporaryDirectory.path }

    private static func openTemporary() throws -> Int32 {
        var template = Array((folder + "/ensim-close-contacts-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SpillError(description: "cannot create a temporary file in \(folder) for the close-contact history "
                             + "(\(String(cString: strerror(errno)))); set TMPDIR to a writable folder")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}

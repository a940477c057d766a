import Foundation
import SimulationCore

/// Writes a run's streamed tables (`TableStreams`) as CSV files in the run's staging folder while
/// the run goes, so a long run holds a buffer per table instead of the table. The files become
/// part of the run folder when `ResultsWriter` commits it; a run that fails leaves them in the
/// staging folder, which is discarded.
///
/// A write error (a full disk) is kept, later rows are dropped, and `finish()` throws it, so the
/// simulation's inner loops need not handle I/O.
public final class CSVStreams: TableStreams {
    private let folder: RunFolder
    private var open: [CSVFileStream] = []

    public init(folder: RunFolder) { self.folder = folder }

    /// Names of the tables written so far, in the order they were opened.
    public var names: [String] { open.map(\.name) }

    public func open(_ name: String, columns: [String]) -> any TableStream {
        let stream = CSVFileStream(name: name, url: folder.stagingURL.appendingPathComponent(name), columns: columns)
        open.append(stream)
        return stream
    }

    /// Flushes and closes every file; throws the first write error of any of them.
    public func finish() throws {
        var first: Error?
        for s in open {
            do { try s.close() } catch { first = first ?? error }
        }
        if let first { throw first }
    }
}

extension RunFolder {
    /// Writes a finished table as CSV into the staging folder in 1 MiB pieces: a long run's
    /// largest table (packages.csv, the hourly tables) is never held encoded in memory, which
    /// was the peak of a two-year run. The file becomes visible only when the folder is committed.
    public func writeCSV(_ name: String, _ table: ResultTable) throws {
        let url = stagingURL.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ReportingError.io(path: url.path, reason: "cannot write (\(error.localizedDescription))")
        }
        let stream = CSVFileStream(name: name, url: url, columns: table.columns)
        for i in 0..<table.count { stream.append(table.row(i)) }
        try stream.close()
    }
}

/// One streamed CSV file: rows are encoded into a buffer that is written out at 1 MiB.
final class CSVFileStream: TableStream {
    let name: String
    private let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: ReportingError?
    private static let flushBytes = 1 << 20

    init(name: String, url: URL, columns: [String]) {
        self.name = name
        path = url.path
        descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { failure = .io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        buffer.reserveCapacity(Self.flushBytes + 4_096)
        CSVReport.appendRow(columns.lazy.map { .text($0) }, to: &buffer)
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    func append(_ row: [ResultTable.Cell]) {
        CSVReport.appendRow(row, to: &buffer)
        if buffer.count >= Self.flushBytes { flush() }
    }

    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = .io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))")
                return
            }
            written += n
        }
    }

    func close() throws {
        flush()
        if descriptor >= 0 {
            if Foundation.close(descriptor) != 0, failure == nil {
                failure = .io(path: path, reason: "cannot write (\(String(cString: strerror(errno))))")
            }
            descriptor = -1
        }
        if let failure { throw failure }
    }
}
